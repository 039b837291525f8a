import type { AlarmTask } from "./alarm-task";
import { BeaconWatchTask, type BeaconWatchDeps } from "../beacon-watch/beacon-watch-task";
import { DueNoticeTask, type DueNoticeCheck } from "../due-notices/due-notice-task";
import { StopAddressTask } from "../stop-addresses/stop-address-task";
import { CustomerMessageTask, type CustomerMessageSend } from "../customer-messages/customer-message-task";

/** What the object's own tasks need of it. */
export type ObjectTaskDeps = BeaconWatchDeps & {
  checkDueNotices: DueNoticeCheck;
  sendCustomerMessages: CustomerMessageSend;
  /** Sets the object's alarm again (a task newly due between rings). */
  schedule: () => Promise<void>;
};

/**
 * The writes that were cron's own, as tasks of the workspace object's alarm (docs/decisions/0059,
 * 0066): the object is then the one writer of its live tables. The room runs them with its other
 * tasks; the due notices' task is also woken by the cron (`want`), whose query knows when it has work,
 * and the customer messages' by the jobs' transitions of a report (`noticed`, ADR 0085).
 */
export function objectTasks(deps: ObjectTaskDeps) {
  const fleet = deps.fleet;
  const dueNotices = new DueNoticeTask({ ...deps, check: deps.checkDueNotices });
  const customerMessages = new CustomerMessageTask({ ...deps, send: deps.sendCustomerMessages });
  const all: AlarmTask[] = [
    new BeaconWatchTask(deps),
    new StopAddressTask({ ...deps, stops: () => fleet().stops, token: () => fleet().geocoderToken }),
    dueNotices,
    customerMessages,
  ];
  return { all, dueNotices, customerMessages };
}
