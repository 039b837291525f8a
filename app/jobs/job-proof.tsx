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
 * who received it and the driver's note. From the synced job, so it shows offline. The one home of
 * a job's proof: the dispatcher's job detail and the driver's done stop (driver-stop.tsx) show it.
 * `recipientSaid`: the caller already names who received it (the driver's "Done at … · received
 * by …" line), so it is not said twice.
 */
export function JobProof({ job, recipientSaid = false }: { job: ProofOf; recipientSaid?: boolean }) {
  if (!hasProof(job)) return null;
  const recipient = recipientSaid ? null : job.recipientName;
  return (
    <section className="job-proof" aria-label="Proof of delivery">
      <h3>Proof</h3>
      <PhotoStrip ids={job.proofPhotoIds} />
      {job.signaturePhotoId ? <Signature id={job.signaturePhotoId} by={job.recipientName} /> : null}
      <dl className="job-facts">
        {recipient ? <Fact term="Received by" value={recipient} /> : null}
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
