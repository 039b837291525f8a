import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { partQuantities, type SyncedWorkOrder, type SyncedWorkOrderLine } from "../../shared/maintenance/work-orders";
import { dateTimeText } from "../../shared/units/clock";
import { Signature } from "../jobs/job-proof";
import { SignaturePad } from "../jobs/signature-pad";
import { localInput } from "../lib/local-input";
import { addPhoto, PhotoRejected } from "../photos/photos";
import { PhotoPicker, PhotoStrip } from "../photos/photo-picker";
import { useWorkOrderLinesRequired, useWorkspaceClock, useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { milesFromForm } from "../../shared/costs/fuel";
import { distanceText, distanceUnit } from "../units/units-text";
import { useSession } from "../session/session";
import { useParts, useWorkOrderMutations } from "../store/work-orders";

/**
 * Completing a work order and what it shows once completed (issue 55, docs/decisions/0089): the
 * odometer, photos of the work and the signature of whoever closes it, as a job's proof of
 * delivery takes them (app/jobs/proof-form.tsx): each photo, the signature too, is kept on the
 * device and given its id at once (app/photos), so the whole completion is saved offline through
 * the completeWorkOrder mutator and the photos upload when the network returns.
 */
const fail = (what: string) => () => toast.error(`Could not ${what}`);

/** The parts whose stock the lines would take below zero, by name (the server refuses those unless told). */
function shortParts(lines: SyncedWorkOrderLine[], parts: { id: string; name: string; quantityOnHand: number }[]) {
  return [...partQuantities(lines)].flatMap(([id, q]) => {
    const part = parts.find((p) => p.id === id);
    return part && part.quantityOnHand - q < 0 ? [part.name] : [];
  });
}

export function Completion({ order, lines }: { order: SyncedWorkOrder; lines: SyncedWorkOrderLine[] }) {
  if (order.status === "completed") return <Completed order={order} />;
  if (order.status === "cancelled") return null;
  return <CompleteForm order={order} lines={lines} />;
}

/** When and by whom, at what odometer, the photos and the signature; "Reopen" for those who may edit. */
export function Completed({ order, canReopen = true }: { order: SyncedWorkOrder; canReopen?: boolean }) {
  const { reopen } = useWorkOrderMutations();
  const clock = useWorkspaceClock();
  const units = useWorkspaceUnits();
  return (
    <section aria-label="Completion" className="work-order-completion">
      <p>
        Completed {order.completedAt ? dateTimeText(order.completedAt, clock) : ""}
        {order.signedName ? ` by ${order.signedName}` : ""}
        {order.odometerMiles !== null ? ` at ${distanceText(order.odometerMiles, units)}` : ""}.
      </p>
      <PhotoStrip ids={order.photoIds} />
      {order.signaturePhotoId ? <Signature id={order.signaturePhotoId} by={order.signedName} /> : null}
      {canReopen ? (
        <button type="button" className="button" onClick={() => void reopen(order.id).catch(fail("reopen it"))}>
          Reopen
        </button>
      ) : null}
    </section>
  );
}

/** The completion's photos and signature as they are taken, and its submit: the signature kept as a photo, then the mutator. */
function useCompleting(order: SyncedWorkOrder) {
  const { complete } = useWorkOrderMutations();
  const session = useSession();
  const units = useWorkspaceUnits();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const [signature, setSignature] = useState<Blob | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const workspaceId = session.workspace?.id;
    const userId = session.viewer?.id;
    if (!workspaceId || !userId) return;
    const data = new FormData(e.currentTarget);
    const odometer = String(data.get("odometer") ?? "");
    const when = String(data.get("completedAt") ?? "");
    setPending(true);
    try {
      const signaturePhotoId = signature ? await addPhoto(signature, workspaceId, userId) : null;
      await complete({
        id: order.id,
        serviceEntryId: crypto.randomUUID(),
        // typed in the workspace's units (km in a metric one), kept in miles as `odometerMiles` says
        odometerMiles: odometer ? milesFromForm(units, Number(odometer)) : null,
        completedAt: when ? new Date(when).toISOString() : null,
        signedName: String(data.get("signedName") ?? "") || null,
        photoIds,
        signaturePhotoId,
        allowNegativeStock: data.get("allowNegativeStock") === "on",
      });
      if (!navigator.onLine) toast("Completed on this device; it syncs when you are back online");
    } catch (error) {
      toast.error(error instanceof PhotoRejected ? error.message : "Could not complete it");
    } finally {
      setPending(false);
    }
  };
  return { photoIds, setPhotoIds, setSignature, pending, submit };
}

function CompleteForm({ order, lines }: { order: SyncedWorkOrder; lines: SyncedWorkOrderLine[] }) {
  const short = shortParts(lines, useParts());
  const { photoIds, setPhotoIds, setSignature, pending, submit } = useCompleting(order);
  // The workspace requires a line (Preferences): the server would refuse it, so say why here, offline too.
  const needsLine = useWorkOrderLinesRequired() && lines.length === 0;
  const unit = distanceUnit(useWorkspaceUnits());
  return (
    <form className="work-order-form" onSubmit={(e) => void submit(e)} aria-label="Complete">
      <label className="when">
        <span>Completed at (now when empty)</span>
        <input className="input" name="completedAt" type="datetime-local" max={localInput(Date.now())} />
      </label>
      <label>
        <span>Odometer ({unit}; the vehicle&apos;s own then when empty)</span>
        <input className="input" name="odometer" type="number" min="0" step="0.1" />
      </label>
      <label>
        <span>Signed</span>
        <input className="input" name="signedName" maxLength={200} autoComplete="name" />
      </label>
      <div className="work-order-wide">
        <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add photo of the work" />
      </div>
      <div className="work-order-wide">
        <SignaturePad onChange={setSignature} label="Signature of whoever completes it" />
      </div>
      {short.length ? (
        <label className="checkbox">
          <input type="checkbox" name="allowNegativeStock" required />
          <span>Not enough {short.join(", ")} in stock: take it anyway</span>
        </label>
      ) : null}
      {needsLine ? (
        <p className="muted work-order-wide" id="complete-needs-line">
          Add a labour or part line first: this workspace requires one before a work order is completed.
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="submit"
          className="button primary"
          disabled={pending || needsLine}
          aria-describedby={needsLine ? "complete-needs-line" : undefined}
        >
          Complete
        </button>
      </div>
    </form>
  );
}
