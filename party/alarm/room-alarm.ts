import type { AlarmJob } from "./alarm-job";

/** What the alarm needs of the Durable Object's storage. */
type AlarmStorage = Pick<DurableObjectStorage, "getAlarm" | "setAlarm">;

/**
 * The workspace object's one Durable Object alarm over its jobs (party/alarm/alarm-job.ts): set
 * for the earliest time any job is due, and when it rings every due job runs, in list order. No
 * job's failure skips another or ends the chain: each is caught and logged, and the next alarm is
 * always set (only a failure to set it throws, and the runtime then retries the ring).
 */
export class RoomAlarm {
  /** When the alarm is set for, as this instance set it (null: none; undefined: not read yet). */
  #at: number | null | undefined = undefined;

  constructor(
    private readonly storage: AlarmStorage,
    private readonly jobs: readonly AlarmJob[],
  ) {}

  /** The alarm rang: runs what is due, then sets the next. */
  async ring(now = Date.now()): Promise<void> {
    this.#at = null;
    for (const job of this.jobs) {
      try {
        const due = await job.dueAt(now);
        if (due !== null && (due <= now || job.ridesAlong)) await job.run(now);
      } catch (error) {
        console.error(`alarm job ${job.name} failed:`, error);
      }
    }
    await this.schedule();
  }

  /** Sets the alarm for the earliest due job, if that is earlier than it is set for. */
  async schedule(now = Date.now()): Promise<void> {
    const times: number[] = [];
    for (const job of this.jobs) {
      const due = await Promise.resolve(job.dueAt(now)).catch((error: unknown) => {
        console.error(`alarm job ${job.name}: when it is due is unknown:`, error);
        return null;
      });
      if (due !== null) times.push(due);
    }
    if (!times.length) return;
    const at = Math.min(...times);
    // Remembered, so a busy fleet's every call does not ask storage.
    if (this.#at === undefined) this.#at = await this.storage.getAlarm();
    if (this.#at === null || this.#at > at) {
      await this.storage.setAlarm(at);
      this.#at = at;
    }
  }
}
