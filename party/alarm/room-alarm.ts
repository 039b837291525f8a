import type { AlarmTask } from "./alarm-task";

/** What the alarm needs of the Durable Object's storage. */
type AlarmStorage = Pick<DurableObjectStorage, "getAlarm" | "setAlarm">;

/**
 * The workspace object's one Durable Object alarm over its tasks (party/alarm/alarm-task.ts): set
 * for the earliest time any task is due, and when it rings every due task runs, in list order. No
 * task's failure skips another or ends the chain: each is caught and logged, and the next alarm is
 * always set (only a failure to set it throws, and the runtime then retries the ring).
 */
export class RoomAlarm {
  /** When the alarm is set for, as this instance set it (null: none; undefined: not read yet). */
  #at: number | null | undefined = undefined;

  constructor(
    private readonly storage: AlarmStorage,
    private readonly tasks: readonly AlarmTask[],
  ) {}

  /** The alarm rang: runs what is due, then sets the next. */
  async ring(now = Date.now()): Promise<void> {
    this.#at = null;
    for (const task of this.tasks) {
      try {
        const due = await task.dueAt(now);
        if (due !== null && (due <= now || task.ridesAlong)) await task.run(now);
      } catch (error) {
        console.error(`alarm task ${task.name} failed:`, error);
      }
    }
    await this.schedule();
  }

  /** Sets the alarm for the earliest due task, if that is earlier than it is set for. */
  async schedule(now = Date.now()): Promise<void> {
    const times: number[] = [];
    for (const task of this.tasks) {
      const due = await Promise.resolve(task.dueAt(now)).catch((error: unknown) => {
        console.error(`alarm task ${task.name}: when it is due is unknown:`, error);
        return null;
      });
      if (due !== null) times.push(due);
    }
    if (!times.length) return;
    const at = Math.min(...times);
    // Remembered, so a busy fleet's every call does not ask storage.
    if (this.#at === undefined) this.#at = await alarmOnDateClock(this.storage);
    if (this.#at === null || this.#at > at) {
      await this.storage.setAlarm(toRuntimeClock(at));
      this.#at = at;
    }
  }
}

/**
 * How far `Date` runs ahead of the runtime's own clock: 0, except under a chosen test hour
 * (worker/test-clock.ts keeps the real Date as `__realDate`; issue 57). The runtime rings alarms on
 * its own clock, so a time read from `Date` is moved back by this before it is set, or a workspace
 * with no page open would flush its jobs to D1 hours late (found at 23:30 UTC: a customer page
 * stayed "Planned" for a van on its way).
 */
function dateAhead(): number {
  const real = (globalThis as { __realDate?: DateConstructor }).__realDate;
  return real && real !== Date ? Date.now() - real.now() : 0;
}
const toRuntimeClock = (at: number) => at - dateAhead();

/** When the object's alarm rings, on Date's clock (what its tasks and tests compare it with), or null. */
export async function alarmOnDateClock(storage: Pick<DurableObjectStorage, "getAlarm">): Promise<number | null> {
  const at = await storage.getAlarm();
  return at === null ? null : at + dateAhead();
}
