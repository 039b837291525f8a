import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { issueTable } from "../../shared/maintenance/issue-fields";
import { createIssueBody, type Issue, type UpdateIssueBody } from "../../shared/maintenance/issues";
import { Field, FormError, SubmitButton, TextAreaFormField } from "../components/form";
import { replyWithApiError, useZodForm } from "../components/use-zod-form";

/**
 * Title and description as an issue is reported: the title's input checked as the table's
 * (required), an empty description clears it.
 */
const schema = z.object({ title: issueTable.formChecks.title, description: createIssueBody.shape.description });

/**
 * "Edit" on an issue's page (those who may change issues, shared/account/roles.ts `fleet.edit`): its title
 * and description, saved through the page's own update (a sync mutation for a synced issue, so it
 * works offline; PATCH /api/issues/{id} for an older one read from the server). A description the
 * device does not hold (a long one, offline: docs/decisions/0034) is left as it is.
 */
export function EditIssueDetails({
  issue,
  update,
}: {
  issue: Issue;
  update: (changes: UpdateIssueBody) => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  // One block of the page, spaced from the Photos heading under it as the page's other blocks are.
  return (
    <div className="issue-edit">
      {editing ? (
        <EditForm issue={issue} update={update} done={() => setEditing(false)} />
      ) : (
        <button type="button" className="button" onClick={() => setEditing(true)}>
          Edit title and description
        </button>
      )}
    </div>
  );
}

function EditForm({
  issue,
  update,
  done,
}: {
  issue: Issue;
  update: (changes: UpdateIssueBody) => Promise<void>;
  done: () => void;
}) {
  const withDescription = !issue.descriptionOnServer;
  const { form, fields, pending } = useZodForm(
    `edit-issue-${issue.id}`,
    schema,
    async (value, submission) => {
      try {
        await update(
          withDescription ? { title: value.title, description: value.description ?? null } : { title: value.title },
        );
      } catch (error) {
        return replyWithApiError(submission, error, "Could not save the issue");
      }
      toast("Issue saved");
      done();
    },
    { title: issue.title, description: issue.description ?? "" },
  );
  return (
    <form {...getFormProps(form)} className="card issue-edit" aria-label="Edit the issue">
      <Field field={fields.title} label="Title" autoFocus />
      {withDescription ? (
        <TextAreaFormField field={fields.description} label="Description" rows={4} />
      ) : (
        <p className="muted">The description is on the server; it can be changed when you are online.</p>
      )}
      <FormError form={form} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={done}>
          Cancel
        </button>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </div>
    </form>
  );
}
