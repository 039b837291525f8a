import type { AlarmJob } from "./alarm-job";
import { BeaconWatchJob, type BeaconWatchDeps } from "../beacon-watch/beacon-watch-job";
import { DueNoticeJob, type DueNoticeCheck } from "../due-notices/due-notice-job";
import { StopAddressJob } from "../stop-addresses/stop-address-job";

/** What the object's own jobs need of it. */
export type ObjectJobDeps = BeaconWatchDeps & { checkDueNotices: DueNoticeCheck };

/**
 * The writes that were cron's own, as jobs of the workspace object's alarm (docs/decisions/0059,
 * 0066): the object is then the one writer of its live tables. The room runs them with its other
 * jobs; the due notices' job is also woken by the cron (`want`), whose query knows when it has work.
 */
export function objectJobs(deps: ObjectJobDeps): { all: AlarmJob[]; dueNotices: DueNoticeJob } {
  const fleet = deps.fleet;
  const dueNotices = new DueNoticeJob({ ...deps, check: deps.checkDueNotices });
  return {
    all: [
      new BeaconWatchJob(deps),
      new StopAddressJob({ ...deps, stops: () => fleet().stops, token: () => fleet().geocoderToken }),
      dueNotices,
    ],
    dueNotices,
  };
}
