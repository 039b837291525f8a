/**
 * One task of a workspace object's alarm (issue 40): the object has one Durable Object alarm, set
 * for the earliest time any of its tasks is due, and runs every task that is due when it rings. The
 * flush of pending reports, the sockets' re-check and the positions' maintenance are tasks; so are
 * the writes that used to be cron's own (beacon silence, clock-ahead, stop addresses, due notices),
 * which makes the object the one writer of its workspace's live tables.
 *
 * A task's failure is its own: the alarm logs it, runs the others and still sets the next alarm.
 */
export interface AlarmTask {
  /** For logs: what failed. */
  readonly name: string;
  /** When the task next has work (epoch ms), or null when it has none until something happens. */
  dueAt(now: number): number | null | Promise<number | null>;
  /** Does the task's work; called only when `dueAt` is at or before `now` (or, with `ridesAlong`, is not null). */
  run(now: number): Promise<void>;
  /**
   * Runs at every ring while it has work at all, due or not: for work cheapest done while the
   * object is awake anyway (the flush of pending reports). Its `dueAt` still sets the alarm.
   */
  readonly ridesAlong?: boolean;
}

/** Why the cron wakes an object (worker/workspace-object.ts `runWorkspaceTasks`): what its query found due there. */
export interface AlarmWake {
  /** Service schedules that reached a figure not announced yet (party/due-notices/). */
  dueNotices?: boolean;
}
