import { dayOf, endOfDay, startOfDay } from "../../shared/units/time-zone";
import type { AlertRule } from "../../shared/alerts/alert-rules";
import type { AcceptedFix, FleetModule, FlushRow } from "../fold/fold";
import { jobAlerts } from "./job-alerts";
import type { PlannedJob } from "./planned-job";
import type { HourShape } from "../routing/street-travel";
import { advanceJobs, initialJobsState, type JobsState, type JobTransition } from "./progress";

/**
 * Jobs as a module of the fleet fold (docs/decisions/0016, 0055): each accepted fix of a vehicle
 * with jobs that day moves their status, ETA and late flag; what is worth writing becomes rows of
 * JOB_PROGRESS_TABLE (an update of the job's own row, registered in party/live-fleet/flush-tables.ts)
 * and the transitions go to `notify` (job alerts). A vehicle with no jobs pays a lookup.
 */
export const JOBS_MODULE = "jobs";
export const JOB_PROGRESS_TABLE = "job_progress";

/** A vehicle's jobs by local day, as the object holds them (undefined: none on any day held). */
export type PlansOf = (vehicleId: string) => ReadonlyMap<string, readonly PlannedJob[]> | undefined;

export function jobsModule(
  plansOf: PlansOf,
  /** The workspace's alert rules: job_late, job_arrived and job_completed raise alerts (domain/jobs/job-alerts.ts). */
  rules: readonly AlertRule[] = [],
  notify?: (vehicleId: string, transitions: JobTransition[]) => void,
  /** The workspace's shape of a day, learned from its driving (docs/decisions/0097): the ETA's later legs follow it. */
  hourShape?: HourShape,
): FleetModule<JobsState | undefined> {
  return {
    name: JOBS_MODULE,
    step(state, accepted: AcceptedFix) {
      const { fix, vehicleId, workspaceId, timeZone } = accepted;
      // Most vehicles of a fleet have no jobs: one lookup, no day worked out, nothing kept.
      const days = plansOf(vehicleId);
      if (!days) return { state };
      const bounds = state?.dayBounds;
      const day = bounds && fix.time >= bounds[0] && fix.time < bounds[1] ? state.day : dayOf(fix.time, timeZone);
      const plan = days.get(day);
      if (!plan?.length) return { state };
      const next = advanceJobs(state ?? initialJobsState(day), fix, day, plan, {
        replay: accepted.replay !== undefined,
        timeZone,
        ...(hourShape && { hourShape }),
      });
      if (next.state.day !== state?.day || !next.state.dayBounds)
        next.state.dayBounds = [startOfDay(day, timeZone), endOfDay(day, timeZone)];
      if (next.transitions.length && notify && !accepted.replay) notify(vehicleId, next.transitions);
      const rows: FlushRow[] = next.changed.map((progress) => ({
        table: JOB_PROGRESS_TABLE,
        row: { ...progress, workspaceId },
      }));
      for (const alert of jobAlerts(rules, vehicleId, next.transitions, plan))
        rows.push({ table: "alerts", row: { ...alert, workspaceId } });
      return { state: next.state, rows };
    },
  };
}
