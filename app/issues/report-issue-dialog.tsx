import { getFormProps } from "@conform-to/react";
import { Fragment, useEffect, useRef, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { placedAfter } from "../../shared/fields/field-table";
import { issueTable } from "../../shared/maintenance/issue-fields";
import { createIssueBody } from "../../shared/maintenance/issues";
import { FormError, SelectFormField, SubmitButton, TextAreaFormField } from "../components/form";
import { TableFormFields } from "../components/table-inputs";
import { useZodForm } from "../components/use-zod-form";
import { useCan, useSession } from "../session/session";
import { useVehicles } from "../store";
import { useIssueMutations } from "../store/issues";
import { PhotoPicker } from "../photos/photo-picker";
import { useWorkspaceMembers } from "./use-workspace-members";

/**
 * The issue table's inputs checked input by input (`formChecks`), with the vehicle, the
 * description and the assignee written out beside them (photos are picked apart).
 */
const { vehicleId, description, assigneeUserId } = createIssueBody.shape;
const formSchema = z.object({
  vehicleId,
  ...placedAfter(placedAfter(issueTable.formChecks, "title", { description }), "priority", { assigneeUserId }),
});

/**
 * "Report an issue" (vehicle page, map panel, Issues page): saved as a synced mutation, so it
 * works with no network; the issue gets its number (#n) when it reaches the server.
 */
export function ReportIssueDialog({ vehicleId, onClose }: { vehicleId?: string; onClose: () => void }) {
  const dialog = useModalOnMount();
  const vehicles = useVehicles();
  const { members } = useWorkspaceMembers();
  const viewerId = useSession().viewer?.id ?? null;
  const { create } = useIssueMutations();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    "report-issue",
    formSchema,
    async (value, submission) => {
      try {
        await create({
          ...value,
          id: crypto.randomUUID(),
          photoIds,
          reportedByUserId: viewerId,
          createdAt: Date.now(),
        });
      } catch {
        return submission.reply({ formErrors: ["Could not save the issue on this device"] });
      }
      toast(navigator.onLine ? "Issue reported" : "Issue saved; it syncs when you are back online");
      dialog.current?.close();
    },
    { vehicleId: vehicleId ?? vehicles[0]?.id ?? "", priority: "medium", assigneeUserId: "" },
  );
  return (
    <dialog ref={dialog} className="card dialog issue-dialog" aria-label="Report an issue" onClose={onClose}>
      <form {...getFormProps(form)}>
        <h2>Report an issue</h2>
        <SelectFormField
          field={fields.vehicleId}
          label="Vehicle"
          options={vehicles.map((v) => ({ value: v.id, label: v.name }))}
        />
        <IssueInputs conform={fields} assignees={assigneeOptions(members, viewerId)} />
        <PhotoPicker ids={photoIds} onChange={setPhotoIds} />
        <FormError form={form} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <SubmitButton pending={pending}>Report issue</SubmitButton>
        </div>
      </form>
    </dialog>
  );
}

/**
 * The issue table's inputs, each followed by the written-out input that has always stood after it
 * (the description after the title, the assignee after the priority).
 */
function IssueInputs({
  conform,
  assignees,
}: {
  conform: ReturnType<typeof useZodForm<typeof formSchema>>["fields"];
  assignees: { value: string; label: string }[];
}) {
  const after: Partial<Record<string, ReactNode>> = {
    title: <TextAreaFormField field={conform.description} label="Description" />,
    priority: <SelectFormField field={conform.assigneeUserId} label="Assignee" options={assignees} />,
  };
  return issueTable.formFields.map((input) => (
    <Fragment key={input.name}>
      <TableFormFields fields={[input]} conform={conform} />
      {after[input.name]}
    </Fragment>
  ));
}

/** A dialog shown as a modal as soon as it mounts (its parent mounts it to open it). */
function useModalOnMount() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return dialog;
}

/** Whom an issue can be assigned to: nobody, or a member (the signed-in one marked). */
function assigneeOptions(members: { userId: string; email: string }[], viewerId: string | null) {
  return [
    { value: "", label: "Unassigned" },
    ...members.map((m) => ({ value: m.userId, label: m.userId === viewerId ? `${m.email} (you)` : m.email })),
  ];
}

/** The "Report an issue" button and its dialog; hidden for viewers, who cannot report. */
export function ReportIssueButton({ vehicleId, className = "button" }: { vehicleId?: string; className?: string }) {
  const [open, setOpen] = useState(false);
  if (!useCan("fleet.edit")) return null;
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        Report an issue
      </button>
      {open ? <ReportIssueDialog vehicleId={vehicleId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
