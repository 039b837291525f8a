import type { AlarmJob } from "./alarm-job";

/** The earliest time any of the jobs is due (null: none has work until something happens). A job that fails to say is asked again next time. */
export async function earliestDue(jobs: readonly AlarmJob[], now: number): Promise<number | null> {
  let earliest: number | null = null;
  for (const job of jobs) {
    const due = await Promise.resolve(job.dueAt(now)).catch((error: unknown) => {
      console.error(`alarm job ${job.name}: dueAt failed:`, error);
      return null;
    });
    if (due !== null && (earliest === null || due < earliest)) earliest = due;
  }
  return earliest;
}

/** Runs every job due at `now`, one after the other; a job's failure is logged and stops none of the others. */
export async function runDueJobs(jobs: readonly AlarmJob[], now: number): Promise<void> {
  for (const job of jobs) {
    try {
      const due = await job.dueAt(now);
      if (due !== null && due <= now) await job.run(now);
    } catch (error) {
      console.error(`alarm job ${job.name} failed; it is tried again:`, error);
    }
  }
}
