import type { SyncedJob } from "../../shared/jobs/jobs";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useJobMutations } from "../store/jobs";
import { isOverForGood } from "./status";
import { StopList } from "./stop-list";
import { CustomerLinkButton } from "./customer-link";

/**
 * One vehicle's day on the dispatch page (or, with no vehicle, the unassigned jobs): its stops
 * numbered in order, reordered by dragging or the arrow buttons, each with a vehicle to move it to
 * and Cancel. Moving a job to a vehicle puts it at the end of that vehicle's day (reorderJobs
 * names the vehicle's whole new order, so both browsers agree on every number).
 */
export function RouteCard({
  vehicle,
  date,
  jobs,
  allOfDay,
  vehicles,
  canPlan,
  reorderable,
  colour,
  openHref,
}: {
  vehicle: Vehicle | null;
  date: string;
  /** The jobs shown (the status filter applied). */
  jobs: readonly SyncedJob[];
  /** Every route's jobs of the day by vehicle id ("" for unassigned), to append a moved job to. */
  allOfDay: ReadonlyMap<string, readonly SyncedJob[]>;
  vehicles: readonly Vehicle[];
  canPlan: boolean;
  /** Off while a filter hides some stops: an order of the visible ones alone would renumber the hidden. */
  reorderable: boolean;
  colour?: string;
  /** The address of a stop's story (the job detail). */
  openHref: (jobId: string) => string;
}) {
  const { reorderJobs } = useJobMutations();
  const name = vehicle?.name ?? "Unassigned";
  const moveTo = (job: SyncedJob, vehicleId: string) => {
    const target = (allOfDay.get(vehicleId) ?? []).filter((j) => j.id !== job.id).map((j) => j.id);
    void reorderJobs({ vehicleId: vehicleId || null, date, jobIds: [...target, job.id] });
  };
  return (
    <section
      className="card route-card"
      aria-label={vehicle ? `Route of ${name}` : "Unassigned jobs"}
      style={colour ? { borderLeftColor: colour } : undefined}
    >
      <h2>
        {name} <span className="muted">· {jobs.length === 1 ? "1 stop" : `${jobs.length} stops`}</span>
      </h2>
      {jobs.length === 0 ? (
        <p className="muted">{vehicle ? "No stops this day." : "Every job has a vehicle."}</p>
      ) : null}
      <StopList
        label={vehicle ? `Stops of ${name}` : "Unassigned jobs"}
        stops={jobs}
        openHref={openHref}
        onReorder={
          canPlan && reorderable
            ? (ids) => void reorderJobs({ vehicleId: vehicle?.id ?? null, date, jobIds: ids })
            : undefined
        }
        extra={canPlan ? (job) => <StopActions job={job} vehicles={vehicles} onMove={moveTo} /> : undefined}
      />
    </section>
  );
}

/**
 * A stop's planning actions: the vehicle it goes to (or none), Cancel, and the customer's link.
 * Nothing once it is over for good (completed or cancelled); a skipped stop keeps them: the
 * dispatcher gives it to another vehicle or cancels it (issue 53).
 */
function StopActions({
  job,
  vehicles,
  onMove,
}: {
  job: SyncedJob;
  vehicles: readonly Vehicle[];
  onMove: (job: SyncedJob, vehicleId: string) => void;
}) {
  const { cancelJob } = useJobMutations();
  if (isOverForGood(job.status)) return null;
  return (
    <span className="stop-actions">
      <select
        className="input"
        aria-label={`Vehicle for ${job.title}`}
        value={job.vehicleId ?? ""}
        onChange={(e) => onMove(job, e.target.value)}
      >
        <option value="">Unassigned</option>
        {vehicles.map((v) => (
          <option key={v.id} value={v.id}>
            {v.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button"
        aria-label={`Cancel ${job.title}`}
        onClick={() => void cancelJob({ id: job.id })}
      >
        Cancel
      </button>
      <CustomerLinkButton job={job} />
    </span>
  );
}
