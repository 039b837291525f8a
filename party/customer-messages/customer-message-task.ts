import type { AlarmTask } from "../alarm/alarm-task";
import type { JobTransition } from "../../domain/jobs/progress";

/**
 * The Worker's sender of a workspace's queued customer messages (worker/jobs/customer-messages.ts),
 * as it hands it to its object (worker/workspace-room.ts): the object never imports the Worker.
 */
export type CustomerMessageSend = (workspaceId: string, now: number) => Promise<unknown>;

/** Transitions in a burst (a vehicle's stop done and the next on its way) share one send. */
export const CUSTOMER_MESSAGE_DELAY_MS = 1_000;

export interface CustomerMessageDeps {
  workspaceId: string;
  send: CustomerMessageSend;
  /** Writes pending reports to D1 first: the status change, and the message its trigger queues, are there then. */
  settle: () => Promise<void>;
  /** Sets the object's alarm for the task's new due time. */
  schedule: () => Promise<void>;
}

/**
 * Customer messages of the statuses the vehicle's own reports change (docs/decisions/0085), as a
 * task of the object's alarm: the jobs module's transitions to `en_route` or `completed` make it due
 * a second later; it settles the flush (whose trigger queued the messages in D1) and has the
 * Worker send this workspace's queued ones. Nothing of it runs while a report is taken: the
 * report path only notes that the task is due. The minute cron's drain is the fallback for a send
 * that failed here, and queues "arriving", which no report's transition marks.
 */
export class CustomerMessageTask implements AlarmTask {
  readonly name = "customer messages";
  #dueAt: number | null = null;

  constructor(private readonly deps: CustomerMessageDeps) {}

  /** The jobs module's transitions of one fix: those that may tell a customer make the task due. */
  noticed(transitions: readonly JobTransition[], now = Date.now()) {
    if (!transitions.some((t) => t.kind === "en_route" || t.kind === "completed")) return;
    if (this.#dueAt !== null) return;
    this.#dueAt = now + CUSTOMER_MESSAGE_DELAY_MS;
    void this.deps.schedule().catch((error: unknown) => console.error("customer messages: scheduling failed:", error));
  }

  dueAt(): number | null {
    return this.#dueAt;
  }

  async run(now: number): Promise<void> {
    this.#dueAt = null;
    await this.deps.settle();
    await this.deps.send(this.deps.workspaceId, now);
  }
}
