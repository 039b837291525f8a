import type { AlarmTask } from "../alarm/alarm-task";

/**
 * A workspace with more due schedules than one check announces (at most PER_WORKSPACE_PER_RUN,
 * worker/maintenance/due-notifications.ts) checks again this much later: the cron's quarter hour.
 * A check that failed (D1 unreachable) is tried again then too.
 */
export const DUE_RECHECK_MS = 15 * 60_000;

/** What one check of a workspace's service schedules did. */
export interface DueCheck {
  /** Inbox entries were written: open pages are told. */
  announced: boolean;
  /** Schedules were left for the next check. */
  more: boolean;
}

/**
 * The check itself, as the Worker hands it to its object (worker/workspace-room.ts): the due rule's
 * SQL, the claim and the managers' e-mail live with the HTTP edge, and commit through its one
 * versioned batch (worker/workspace-object.ts), so the object never imports the Worker.
 */
export type DueNoticeCheck = (workspaceId: string, now: number) => Promise<DueCheck>;

export interface DueNoticeDeps {
  workspaceId: string;
  check: DueNoticeCheck;
  /** Writes pending reports to D1 first: the odometer and engine hours the check reads are current then. */
  settle: () => Promise<void>;
  /** Open pages pull what the check wrote. */
  announce: () => Promise<void>;
}

/**
 * Service due notices as a task of the workspace object's alarm (docs/decisions/0066): the object,
 * not a cron writer of its own, writes the Inbox entries (alerts of type service_due_soon and
 * service_overdue) and announces them like its other writes. It is due when the cron's quarter-hour
 * query found something to announce in this workspace and woke the object (`want`), and again a
 * quarter hour later while a busy workspace has more than one check takes. Idempotent: each
 * schedule's period is claimed in D1 (docs/decisions/0032), so a second check, or an older
 * deployment's cron running the same minute, announces nothing twice.
 */
export class DueNoticeTask implements AlarmTask {
  readonly name = "service due notices";
  #dueAt: number | null = null;

  constructor(private readonly deps: DueNoticeDeps) {}

  /** Something may be due (the cron's query found it): the next ring checks. */
  want(now: number): void {
    this.#dueAt = Math.min(this.#dueAt ?? now, now);
  }

  dueAt(): number | null {
    return this.#dueAt;
  }

  async run(now: number): Promise<void> {
    this.#dueAt = now + DUE_RECHECK_MS;
    await this.deps.settle();
    const { announced, more } = await this.deps.check(this.deps.workspaceId, now);
    this.#dueAt = more ? now + DUE_RECHECK_MS : null;
    if (announced) await this.deps.announce();
  }
}
