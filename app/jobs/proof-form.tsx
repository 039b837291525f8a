import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import type { SyncedJob } from "../../shared/jobs/jobs";
import { ErrorLine, InputField, Submit, TextAreaField } from "../components/form";
import { addPhoto, PhotoRejected } from "../photos/photos";
import { PhotoPicker } from "../photos/photo-picker";
import { useSession } from "../session/session";
import { useJobMutations } from "../store/jobs";
import { SignaturePad } from "./signature-pad";

/**
 * "Done" with proof of delivery: photos, a signature drawn on the screen, the recipient's name and
 * a note, all optional. The signature is kept as a photo (app/photos: on the device at once, uploaded
 * when the network allows), so the whole proof is saved offline through the completeJob mutator.
 */
export function ProofForm({ job, onDone }: { job: SyncedJob; onDone: () => void }) {
  const session = useSession();
  const { completeJob } = useJobMutations();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const [signature, setSignature] = useState<Blob | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const workspaceId = session.workspace?.id;
    const userId = session.viewer?.id;
    if (!workspaceId || !userId) return;
    setPending(true);
    try {
      const signaturePhotoId = signature ? await addPhoto(signature, workspaceId, userId) : null;
      await completeJob({
        id: job.id,
        at: Date.now(),
        photoIds,
        signaturePhotoId,
        recipientName: String(data.get("recipientName") ?? "").trim() || null,
        note: String(data.get("note") ?? "").trim() || null,
        completedByUserId: userId,
      });
      toast(navigator.onLine ? "Stop done" : "Stop done on this device; it syncs when you are back online");
      onDone();
    } catch (error) {
      setFailed(error instanceof PhotoRejected ? error.message : "Could not save on this device");
    } finally {
      setPending(false);
    }
  };
  return (
    <form className="proof-form" aria-label={`Proof for ${job.title}`} onSubmit={(e) => void submit(e)}>
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} />
      <SignaturePad onChange={setSignature} />
      <InputField id={`recipient-${job.id}`} name="recipientName" label="Recipient's name" autoComplete="off" />
      <TextAreaField id={`note-${job.id}`} name="note" label="Note" rows={2} />
      <ErrorLine message={failed} />
      <div className="form-actions">
        <Submit pending={pending}>Complete stop</Submit>
        <button type="button" className="button" onClick={onDone}>
          Back
        </button>
      </div>
    </form>
  );
}
