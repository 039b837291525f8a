import { toast } from "sonner";
import { workspaceShareListSchema, type WorkspaceShare } from "../../shared/fleet/shares";
import { ErrorLine } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useManagersList } from "./use-managers-list";

/**
 * Every live share link of the workspace, beside its API tokens (owners and admins; issue 39):
 * which vehicle, who made it, until when, and an End button for any of them. A link also ends by
 * itself when its maker leaves or is removed (worker/team/credentials.ts).
 */
const sharesPath = (workspaceId: string) => `workspaces/${workspaceId}/shares`;
const parseShares = (body: unknown) => workspaceShareListSchema.parse(body).shares;

export function ShareLinks() {
  const {
    workspaceId,
    items: shares,
    error,
    reload,
  } = useManagersList(sharesPath, parseShares, "Could not load the share links");
  if (!workspaceId) return null;
  return (
    <section className="card section share-links" aria-labelledby="share-links-heading">
      <h2 id="share-links-heading">Live share links</h2>
      <p className="muted">Links to a vehicle&apos;s live position that anyone holding them can open until they end.</p>
      <ErrorLine message={error} />
      {shares === null ? (
        <p className="muted">Loading…</p>
      ) : !shares.length ? (
        <p className="muted">No live share links.</p>
      ) : (
        <ShareTable shares={shares} onEnded={() => void reload()} />
      )}
    </section>
  );
}

function ShareTable({ shares, onEnded }: { shares: WorkspaceShare[]; onEnded: () => void }) {
  const end = async (share: WorkspaceShare) => {
    if (!window.confirm(`End the link to ${share.vehicleName}? Whoever has it stops seeing the vehicle at once.`))
      return;
    try {
      await http.delete(`shares/${share.id}`);
      toast(`Ended the link to ${share.vehicleName}`);
      onEnded();
    } catch (err) {
      toast.error((await apiErrorOf(err))?.message ?? "Could not end the link");
    }
  };
  return (
    <table className="simple-table share-link-list">
      <thead>
        <tr>
          <th>Vehicle</th>
          <th>Made by</th>
          <th>Ends</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {shares.map((s) => (
          <tr key={s.id}>
            <td>{s.vehicleName}</td>
            <td>{s.createdByEmail ?? "A removed account"}</td>
            <td>{new Date(s.expiresAt).toLocaleString()}</td>
            <td>
              <button
                type="button"
                className="button"
                onClick={() => void end(s)}
                aria-label={`End the link to ${s.vehicleName} made by ${s.createdByEmail ?? "a removed account"}`}
              >
                End
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
