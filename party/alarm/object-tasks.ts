import type { AlarmTask } from "./alarm-task";
import { BeaconWatchTask, type BeaconWatchDeps } from "../beacon-watch/beacon-watch-task";
import { DueNoticeTask, type DueNoticeCheck } from "../due-notices/due-notice-task";
import { StopAddressTask } from "../stop-addresses/stop-address-task";

/** What the object's own tasks need of it. */
export type ObjectTaskDeps = BeaconWatchDeps & { checkDueNotices: DueNoticeCheck };

/**
 * The writes that were cron's own, as tasks of the workspace object's alarm (docs/decisions/0059,
 * 0066): the object is then the one writer of its live tables. The room runs them with its other
 * tasks; the due notices' task is also woken by the cron (`want`), whose query knows when it has work.
 */
export function objectTasks(deps: ObjectTaskDeps): { all: AlarmTask[]; dueNotices: DueNoticeTask } {
  const fleet = deps.fleet;
  const dueNotices = new DueNoticeTask({ ...deps, check: deps.checkDueNotices });
  return {
    all: [
      new BeaconWatchTask(deps),
      new StopAddressTask({ ...deps, stops: () => fleet().stops, token: () => fleet().geocoderToken }),
      dueNotices,
    ],
    dueNotices,
  };
}
