import { dayOf } from "../../shared/time-zone";
import type { AcceptedFix, FleetModule, FlushRow } from "../fold/fold";
import type { PlannedJob } from "./plan";
import { advanceJobs, initialJobsState, type JobsState, type JobTransition } from "./progress";

/**
 * Jobs as a module of the fleet fold (docs/decisions/0016, 0055): each accepted fix of a vehicle
 * with jobs that day moves their status, ETA and late flag; what is worth writing becomes rows of
 * JOB_PROGRESS_TABLE (an update of the job's own row, registered in party/live-fleet/flush-tables.ts)
 * and the transitions go to `notify` (job alerts). A vehicle with no jobs that day pays a lookup.
 */
export const JOBS_MODULE = "jobs";
export const JOB_PROGRESS_TABLE = "job_progress";

/** The vehicle's jobs of a local day, as the object holds them (undefined or empty: none). */
export type PlanOf = (vehicleId: string, day: string) => readonly PlannedJob[] | undefined;

export function jobsModule(
  planOf: PlanOf,
  notify?: (vehicleId: string, transitions: JobTransition[]) => void,
): FleetModule<JobsState | undefined> {
  return {
    name: JOBS_MODULE,
    step(state, accepted: AcceptedFix) {
      const { fix, vehicleId, workspaceId } = accepted;
      const day = dayOf(fix.time, accepted.timeZone);
      const plan = planOf(vehicleId, day);
      // Nothing planned that day: nothing to follow or write (the state, and the road ratio it learned, kept).
      if (!plan?.length) return { state };
      const next = advanceJobs(state ?? initialJobsState(day), fix, day, plan, accepted.replay !== undefined);
      if (next.transitions.length && notify && !accepted.replay) notify(vehicleId, next.transitions);
      const rows: FlushRow[] = next.changed.map((progress) => ({
        table: JOB_PROGRESS_TABLE,
        row: { ...progress, workspaceId },
      }));
      return { state: next.state, rows };
    },
  };
}
