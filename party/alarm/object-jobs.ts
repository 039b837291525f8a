import type { AlarmJob } from "./alarm-job";
import { BeaconWatchJob, type BeaconWatchDeps } from "../beacon-watch/beacon-watch-job";
import { StopAddressJob } from "../stop-addresses/stop-address-job";

/** What the object's own jobs need of it. */
export type ObjectJobDeps = BeaconWatchDeps;

/**
 * The writes that were cron's own, as jobs of the workspace object's alarm (docs/decisions/0059):
 * the object is then the one writer of its live tables. The room runs them with its other jobs.
 */
export function objectJobs(deps: ObjectJobDeps): AlarmJob[] {
  const fleet = deps.fleet;
  return [
    new BeaconWatchJob(deps),
    new StopAddressJob({ ...deps, stops: () => fleet().stops, token: () => fleet().geocoderToken }),
  ];
}
