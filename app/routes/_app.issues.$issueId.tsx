import { dateTimeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { Link, useParams } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import {
  ISSUE_PRIORITIES,
  ISSUE_STATUSES,
  priorityLabels,
  statusLabels,
  type Issue,
  type IssueComment,
  type UpdateIssueBody,
} from "../../shared/maintenance/issues";
import { ErrorLine, InputField, SelectField, Submit, TextAreaField } from "../components/form";
import { useApiAction } from "../components/use-api-action";
import { EditIssueDetails } from "../issues/edit-issue-form";
import { issueNumber } from "../issues/issue-list";
import { PhotoPicker, PhotoStrip } from "../photos/photo-picker";
import { useIssueDetail } from "../issues/use-issue-detail";
import { useWorkspaceMembers } from "../issues/use-workspace-members";
import { apiErrorOf } from "../lib/http";
import { useCan } from "../session/session";
import { useVehicle } from "../store";
import { CreateFromIssueButton } from "../work-orders/new-work-order";

/** An issue's page: title and description edited; status, priority, assignee and due date changed in place; photos; comments. */
export default function IssuePage() {
  const { issueId = "" } = useParams();
  const detail = useIssueDetail(issueId);
  if (detail.state !== "ready") {
    const message = {
      loading: "Loading…",
      missing: "This issue is not in this workspace.",
      offline: "This issue is not on this device; it shows when you are online.",
    }[detail.state];
    return (
      <section className="page">
        <Crumb />
        <p className="muted">{message}</p>
      </section>
    );
  }
  return <IssueView issue={detail.issue} comments={detail.comments} update={detail.update} comment={detail.comment} />;
}

function Crumb() {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <Link to="/issues">Issues</Link>
    </nav>
  );
}

interface ViewProps {
  issue: Issue;
  comments: IssueComment[];
  update: (changes: UpdateIssueBody) => Promise<void>;
  comment: (text: string, photoIds: string[]) => Promise<void>;
}

function IssueView({ issue, comments, update, comment }: ViewProps) {
  const clock = useWorkspaceClock();
  const vehicle = useVehicle(issue.vehicleId);
  const canEdit = useCan("fleet.edit");
  const { members, nameOf } = useWorkspaceMembers();
  const change = (changes: UpdateIssueBody) =>
    void update(changes).catch(async (error: unknown) =>
      toast.error((await apiErrorOf(error))?.message ?? "Could not change the issue"),
    );
  return (
    <section className="page issue-page">
      <Crumb />
      <header className="issue-header">
        <h1>
          <span className="issue-number">{issueNumber(issue)}</span> {issue.title}
        </h1>
        <p className="muted">
          {vehicle ? <Link to={`/vehicles/${issue.vehicleId}/issues`}>{vehicle.name}</Link> : "A removed vehicle"} ·
          reported {dateTimeText(issue.createdAt, clock)}
          {issue.reportedByUserId ? ` by ${nameOf(issue.reportedByUserId)}` : ""}
          <Source issue={issue} />
        </p>
        <CreateFromIssueButton issue={issue} />
      </header>
      <IssueControls issue={issue} canEdit={canEdit} change={change} members={members} nameOf={nameOf} />
      {issue.description ? <p className="issue-description">{issue.description}</p> : null}
      {issue.descriptionOnServer ? <p className="muted">Its description shows when you are online.</p> : null}
      {canEdit ? <EditIssueDetails key={issue.id} issue={issue} update={update} /> : null}
      <h2>Photos</h2>
      {canEdit ? (
        <PhotoPicker ids={issue.photoIds} onChange={(photoIds) => change({ photoIds })} />
      ) : (
        <PhotoStrip ids={issue.photoIds} />
      )}
      <Comments comments={comments} nameOf={nameOf} comment={comment} canEdit={canEdit} />
    </section>
  );
}

function IssueControls({
  issue,
  canEdit,
  change,
  members,
  nameOf,
}: {
  issue: Issue;
  canEdit: boolean;
  change: (changes: UpdateIssueBody) => void;
  members: { userId: string; email: string }[];
  nameOf: (id: string | null) => string;
}) {
  return (
    <div className="issue-controls">
      <SelectField
        id="issue-status"
        label="Status"
        value={issue.status}
        disabled={!canEdit}
        onChange={(e) => change({ status: e.target.value as Issue["status"] })}
        options={ISSUE_STATUSES.map((s) => ({ value: s, label: statusLabels[s] }))}
      />
      <SelectField
        id="issue-priority"
        label="Priority"
        value={issue.priority}
        disabled={!canEdit}
        onChange={(e) => change({ priority: e.target.value as Issue["priority"] })}
        options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: priorityLabels[p] }))}
      />
      <SelectField
        id="issue-assignee"
        label="Assignee"
        value={issue.assigneeUserId ?? ""}
        disabled={!canEdit}
        onChange={(e) => change({ assigneeUserId: e.target.value || null })}
        options={assigneeChoices(issue, members, nameOf)}
      />
      <InputField
        id="issue-due"
        label="Due date"
        type="date"
        value={issue.dueDate ?? ""}
        disabled={!canEdit}
        onChange={(e) => change({ dueDate: e.target.value || null })}
      />
    </div>
  );
}

/** Whom the issue can go to: nobody, a member, or whoever has it now though no longer a member. */
function assigneeChoices(
  issue: Issue,
  members: { userId: string; email: string }[],
  nameOf: (id: string | null) => string,
) {
  const gone =
    issue.assigneeUserId && !members.some((m) => m.userId === issue.assigneeUserId)
      ? [{ value: issue.assigneeUserId, label: nameOf(issue.assigneeUserId) }]
      : [];
  return [{ value: "", label: "Unassigned" }, ...members.map((m) => ({ value: m.userId, label: m.email })), ...gone];
}

function Source({ issue }: { issue: Issue }) {
  if (issue.sourceInspectionId)
    return (
      <>
        {" "}
        · from an <Link to={`/inspections?inspection=${encodeURIComponent(issue.sourceInspectionId)}`}>inspection</Link>
      </>
    );
  if (issue.sourceAlertId)
    return (
      <>
        {" "}
        · from an <Link to="/inbox">alert</Link>
      </>
    );
  return null;
}

function Comments({
  comments,
  nameOf,
  comment,
  canEdit,
}: {
  comments: IssueComment[];
  nameOf: (id: string | null) => string;
  comment: ViewProps["comment"];
  canEdit: boolean;
}) {
  const clock = useWorkspaceClock();
  return (
    <section className="issue-comments" aria-label="Comments">
      <h2>Comments</h2>
      {comments.length === 0 ? <p className="muted">No comments yet.</p> : null}
      <ol>
        {comments.map((c) => (
          <li key={c.id}>
            <div className="muted">
              {nameOf(c.authorUserId)} · {dateTimeText(c.createdAt, clock)}
            </div>
            <p>{c.text}</p>
            <PhotoStrip ids={c.photoIds} />
          </li>
        ))}
      </ol>
      {canEdit ? <CommentForm comment={comment} /> : null}
    </section>
  );
}

function CommentForm({ comment }: { comment: ViewProps["comment"] }) {
  const [text, setText] = useState("");
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const send = useApiAction(async () => {
    await comment(text.trim(), photoIds);
    setText("");
    setPhotoIds([]);
  }, "Could not add the comment");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return send.setRefusal({ message: "Write a comment first", fields: {} });
    void send.run();
  };
  return (
    <form onSubmit={submit}>
      <TextAreaField
        id="issue-comment"
        label="Add a comment"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} />
      <ErrorLine message={send.refusal?.message ?? null} />
      <Submit pending={send.pending}>Comment</Submit>
    </form>
  );
}
