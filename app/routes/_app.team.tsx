import { dateText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useMemo, useState } from "react";
import {
  can,
  canAssign,
  roleLabels,
  roles,
  type InviteRow,
  type MemberRow,
  type Role,
} from "../../shared/account/roles";
import { useSession } from "../session/session";
import { matchesPerson } from "../team/filter";
import { InviteForm } from "../team/invite-form";
import { useMembers } from "../team/use-members";
import { TableHead } from "../components/table-head";
import { FilterBox } from "../components/filter-box";
import { Alert } from "../components/alert";
import { ConfirmAction } from "../components/form";
import { OnlineOnly } from "../components/online-only";

/** A day in the one date format, on the workspace's calendar (docs/decisions/0079). */
const useDay = () => {
  const clock = useWorkspaceClock();
  return (ms: number) => dateText(ms, clock);
};

/**
 * The members screen (docs/decisions/0018): members and pending invites, filtered; owners and
 * admins invite, change roles, remove, resend and revoke (what the role cannot do is not shown);
 * anyone may leave. The server decides; this only hides what would be refused.
 */
function Team() {
  const session = useSession();
  const workspaceId = session.workspace?.id;
  const members = useMembers(workspaceId);
  const [query, setQuery] = useState("");
  const manage = can(session.role, "members.manage");
  const rows = useMemo(
    () => [...(members.data?.members ?? []), ...(members.data?.invites ?? [])].filter((p) => matchesPerson(p, query)),
    [members.data, query],
  );
  return (
    <section className="page">
      <FilterBox label="Filter team" placeholder="Filter by name, email, or role" query={query} setQuery={setQuery} />
      <h1>Employees</h1>
      {manage && workspaceId ? (
        <InviteForm workspaceId={workspaceId} myRole={session.role} onInvited={() => void members.reload()} />
      ) : null}
      {members.error ? <Alert>{members.error}</Alert> : null}
      <table className="simple team-table" aria-label="Members">
        <TableHead columns={["Email", "Role", "Status"]} actions />
        <tbody>
          {rows.map((p) =>
            "userId" in p ? (
              <MemberLine key={p.userId} member={p} me={session.viewer?.id} myRole={session.role} actions={members} />
            ) : (
              <InviteLine key={p.id} invite={p} myRole={session.role} actions={members} />
            ),
          )}
        </tbody>
      </table>
      {members.data && rows.length === 0 ? <p className="muted">No one matches this filter</p> : null}
    </section>
  );
}

type Actions = ReturnType<typeof useMembers>;

function MemberLine({
  member,
  me,
  myRole,
  actions,
}: {
  member: MemberRow;
  me?: string;
  myRole: string | null;
  actions: Actions;
}) {
  const self = member.userId === me;
  const day = useDay();
  const assignable = roles.filter((r) => canAssign(myRole, member.role, r));
  const canChange = !self && assignable.length > 1 && assignable.includes(member.role);
  const canRemove = self || canAssign(myRole, member.role, null);
  return (
    <tr data-email={member.email}>
      <td>
        {member.email}
        {self ? <span className="muted"> (you)</span> : null}
      </td>
      <td>
        {canChange ? (
          <select
            className="input"
            aria-label={`Role of ${member.email}`}
            value={member.role}
            onChange={(e) => void actions.changeRole(member.userId, e.currentTarget.value as Role)}
          >
            {assignable.map((r) => (
              <option key={r} value={r}>
                {roleLabels[r]}
              </option>
            ))}
          </select>
        ) : (
          roleLabels[member.role]
        )}
      </td>
      <td>Joined {day(member.joinedAt)}</td>
      <td className="row-actions">
        {canRemove ? (
          <ConfirmAction
            label={self ? "Leave" : "Remove"}
            question={self ? "Leave this workspace?" : `Remove ${member.email}?`}
            confirmLabel={self ? "Leave workspace" : "Remove member"}
            onConfirm={() => actions.remove(member.userId)}
          />
        ) : null}
      </td>
    </tr>
  );
}

function InviteLine({ invite, myRole, actions }: { invite: InviteRow; myRole: string | null; actions: Actions }) {
  const expired = invite.expiresAt <= Date.now();
  const day = useDay();
  const manage = canAssign(myRole, null, invite.role);
  return (
    <tr data-email={invite.email}>
      <td>{invite.email}</td>
      <td>{roleLabels[invite.role]}</td>
      <td>{expired ? "Invite expired" : `Pending, expires ${day(invite.expiresAt)}`}</td>
      <td className="row-actions">
        {manage ? (
          <>
            <button type="button" className="button" onClick={() => void actions.resend(invite.id)}>
              Resend
            </button>
            <ConfirmAction
              label="Revoke"
              question={`Revoke the invite to ${invite.email}?`}
              confirmLabel="Revoke invite"
              onConfirm={() => actions.revoke(invite.id)}
            />
          </>
        ) : null}
      </td>
    </tr>
  );
}

/** Only the server has this page's data: offline it says it needs a connection (docs/decisions/0044). */
export default function TeamRoute() {
  return (
    <OnlineOnly heading="Employees">
      <Team />
    </OnlineOnly>
  );
}
