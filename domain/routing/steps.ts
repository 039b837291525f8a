/**
 * The planner's work in steps (issue 54: "a plan request ... never blocks another workspace"): the
 * search is a generator that stops every few iterations, so one driver runs it straight through
 * (tests, the benchmark) and another hands the thread back between stops (the Worker, where every
 * request of an isolate shares one thread: a 3 s plan would hold up every other request).
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to the end at once. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs the steps, awaiting `pause` between them, so other work on the thread goes on meanwhile. */
export async function runCooperatively<T>(steps: Steps<T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await pause();
  }
}
