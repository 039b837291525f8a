import type { SyncedJob } from "../../shared/jobs/jobs";
import { PhotoStrip } from "../photos/photo-picker";
import { usePhotoUrl } from "../photos/photos";
import { Fact } from "./job-fact";

type ProofOf = Pick<SyncedJob, "title" | "proofPhotoIds" | "signaturePhotoId" | "recipientName" | "proofNote">;

/** Whether the driver left any proof on the job. */
export const hasProof = (job: ProofOf) =>
  job.proofPhotoIds.length > 0 || Boolean(job.signaturePhotoId || job.recipientName || job.proofNote);

/**
 * The proof of delivery the driver took (on their phone, offline too): the photos and the
 * signature (photos served by GET /api/photos/{id}, or from this device while they wait to upload),
 * who received it and the driver's note. From the synced job, so it shows offline.
 */
export function JobProof({ job }: { job: ProofOf }) {
  if (!hasProof(job)) return null;
  return (
    <section className="job-proof" aria-label="Proof of delivery">
      <h3>Proof</h3>
      <PhotoStrip ids={job.proofPhotoIds} />
      {job.signaturePhotoId ? <Signature id={job.signaturePhotoId} by={job.recipientName} /> : null}
      <dl className="job-facts">
        {job.recipientName ? <Fact term="Received by" value={job.recipientName} /> : null}
        {job.proofNote ? <Fact term="Driver's note" value={job.proofNote} /> : null}
      </dl>
    </section>
  );
}

/** A signature kept as a photo (a job's proof, a work order's completion), or a grey box while it waits to upload. */
export function Signature({ id, by }: { id: string; by: string | null }) {
  const url = usePhotoUrl(id);
  const label = by ? `Signature of ${by}` : "Signature";
  if (!url) return <span className="job-signature missing" role="img" aria-label={`${label}: not available yet`} />;
  return <img className="job-signature" src={url} alt={label} />;
}
