import { dateTimeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { describeDevice, type ActiveSession } from "../../shared/account/account";
import { useActiveSessions } from "./use-active-sessions";
import { TableHead } from "../components/table-head";
import { Alert } from "../components/alert";

/**
 * Settings -> Security: where the account is signed in (device, network, last used), with a
 * sign-out per sign-in (ASVS V3.3.4). Signing one out closes its live-update sockets at once
 * (the server tells the rooms); this browser's own entry is marked and signed out with
 * "Sign out everywhere" or the account menu instead.
 */
export function ActiveSessions() {
  const { sessions, error, signOut } = useActiveSessions();
  return (
    <>
      <h3>Where you are signed in</h3>
      {error ? <Alert>{error}</Alert> : null}
      {sessions ? (
        <table className="simple" aria-label="Active sessions">
          <TableHead columns={["Device", "Network", "Last used"]} actions />
          <tbody>
            {sessions.map((s) => (
              <SessionLine key={s.id} session={s} onSignOut={() => void signOut(s.id)} />
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function SessionLine({ session, onSignOut }: { session: ActiveSession; onSignOut: () => void }) {
  const device = describeDevice(session.device);
  const lastUsed = dateTimeText(session.lastUsedAt, useWorkspaceClock());
  return (
    <tr>
      <td title={session.device ?? undefined}>
        {device}
        {session.current ? <span className="muted"> (this device)</span> : null}
      </td>
      <td>{session.network ?? "Unknown"}</td>
      <td>{lastUsed}</td>
      <td>
        {session.current ? null : (
          <button
            type="button"
            className="button"
            aria-label={`Sign out ${device}, last used ${lastUsed}`}
            onClick={onSignOut}
          >
            Sign out
          </button>
        )}
      </td>
    </tr>
  );
}
