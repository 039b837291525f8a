import { dateTimeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { toast } from "sonner";
import { workspaceShareListSchema } from "../../shared/fleet/shares";
import { ConfirmAction, ErrorLine } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useManagersList } from "./use-managers-list";

/**
 * Every live link of the workspace, beside its API tokens (owners and admins; issue 39): vehicle
 * share links and customers' links to jobs (issue 51), which one, who made it, until when, and an
 * End button for any of them. A link also ends by itself when its maker leaves or is removed
 * (worker/team/credentials.ts).
 */
const sharesPath = (workspaceId: string) => `workspaces/${workspaceId}/shares`;

/** One row of the list: what the link shows, and where it is ended. */
interface LiveLink {
  id: string;
  /** "Van 7", or "Job #12: Deliver the boiler (customer link)" */
  what: string;
  createdByEmail: string | null;
  expiresAt: number;
  endPath: string;
}

const parseLinks = (body: unknown): LiveLink[] => {
  const { shares, customerLinks } = workspaceShareListSchema.parse(body);
  return [
    ...shares.map((s) => ({ ...s, what: s.vehicleName, endPath: `shares/${s.id}` })),
    ...customerLinks.map((l) => ({
      ...l,
      what: `Job #${l.jobNumber}: ${l.jobTitle} (customer link)`,
      endPath: `jobs/${encodeURIComponent(l.jobId)}/shares/${l.id}`,
    })),
  ];
};

export function ShareLinks() {
  const {
    workspaceId,
    items: links,
    error,
    reload,
  } = useManagersList(sharesPath, parseLinks, "Could not load the share links");
  if (!workspaceId) return null;
  return (
    <section className="card section share-links" aria-labelledby="share-links-heading">
      <h2 id="share-links-heading">Live share links</h2>
      <p className="muted">
        Links to a vehicle&apos;s live position, and customers&apos; links to a job, that anyone holding them can open
        until they end.
      </p>
      <ErrorLine message={error} />
      {links === null ? (
        <p className="muted">Loading…</p>
      ) : !links.length ? (
        <p className="muted">No live share links.</p>
      ) : (
        <ShareTable links={links} onEnded={() => void reload()} />
      )}
    </section>
  );
}

function ShareTable({ links, onEnded }: { links: LiveLink[]; onEnded: () => void }) {
  const clock = useWorkspaceClock();
  const end = async (link: LiveLink) => {
    try {
      await http.delete(link.endPath);
      toast(`Ended the link to ${link.what}`);
      onEnded();
    } catch (err) {
      toast.error((await apiErrorOf(err))?.message ?? "Could not end the link");
    }
  };
  return (
    <table className="simple-table share-link-list">
      <thead>
        <tr>
          <th>Link to</th>
          <th>Made by</th>
          <th>Ends</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {links.map((l) => (
          <tr key={l.id}>
            <td>{l.what}</td>
            <td>{l.createdByEmail ?? "A removed account"}</td>
            <td>{dateTimeText(l.expiresAt, clock)}</td>
            <td>
              <ConfirmAction
                label="End"
                ariaLabel={`End the link to ${l.what} made by ${l.createdByEmail ?? "a removed account"}`}
                question={`End the link to ${l.what}? Whoever has it stops seeing it at once.`}
                confirmLabel="End link"
                onConfirm={() => end(l)}
                className="button"
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
