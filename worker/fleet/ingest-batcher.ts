import type { Db } from "../db/client";
import type { ClockBounds } from "../../party/fleet/device-clock";
import { ingest, ingestBatch, type IngestResult } from "./ingest";
import { ReportError, type Report } from "./osmand";

/**
 * Concurrent beacon requests share D1 round trips (docs/decisions/0007-ingestion-batching.md).
 * D1 runs one query at a time, so 50 beacons reporting at once used to queue 100 round trips
 * behind each other. Here, while one batch is in flight, the requests that arrive wait and then
 * go together in the next one: two round trips for all of them (worker/fleet/ingest.ts
 * `ingestBatch`). An idle isolate starts a request's batch at once, so nothing waits for a timer.
 *
 * Workers tie I/O and promises to the request that created them: a request that awaits a promise
 * another request resolves can hang or be cancelled (workerd reports "Promise will never
 * complete"). So requests share plain data only. A batch is run by one of the waiting requests
 * (the leader), inside its own context, and it writes each member's answer into the member's
 * slot; the others look at their slot on their own timer (POLL_MS), and the first to see no
 * batch in flight leads the next one.
 *
 * Failure isolation: a request whose device id is unknown gets its own ReportError. If the
 * combined write fails (it is one transaction, so nothing of it is stored), every request of
 * the batch runs again on its own, so one bad report cannot fail the others. A batch whose
 * leader vanished (its request cancelled mid-flight) is given up after STALE_MS: its members run
 * on their own and the line moves on.
 */

/** A batch takes requests in arrival order up to this many reports (JSON requests carry up to 500). */
export const MAX_BATCH_REPORTS = 500;
/**
 * How often a waiting request looks for its answer: after 1 ms, then backing off to 4 ms. Every
 * look costs the isolate (single-threaded, also running the batch) a timer and a turn of JS.
 */
export const POLL_MS = 1;
export const MAX_POLL_MS = 4;
/** A batch still in flight after this long is taken as abandoned. */
export const STALE_MS = 15_000;

type Answer = IngestResult | ReportError | Failed;

/** The batch as a whole failed: `alone` when this request was its only member (no point retrying). */
class Failed {
  constructor(
    readonly error: unknown,
    readonly alone: boolean,
  ) {}
}

interface Waiting {
  reports: Report[];
  /** Reports of this device the throttle refused since its last accepted request. */
  throttled: number;
  /** Set by the batch that took this request. */
  answer?: Answer;
  /** When a batch took it (to give up on a vanished leader). */
  takenAt?: number;
}

interface Line {
  waiting: Waiting[];
  /** The batch in flight, if any. */
  current: { startedAt: number; clock?: ClockBounds } | null;
}

/** One line per database binding: requests for the same D1 share its round trips. */
const lines = new WeakMap<object, Line>();

/**
 * Ingests one request's reports (one beacon's, any order) together with whatever else arrives
 * meanwhile. Resolves to this request's own result; rejects with ReportError for an unknown
 * device id. `keepAlive` (the request's waitUntil) keeps a batch this request leads running even
 * if its client goes away, since other requests wait for it. `clock` bounds device clocks (one
 * configuration per isolate, so the leader's holds for its batch); `throttled` is counted on the
 * beacon's health.
 */
export interface TogetherOptions {
  keepAlive?: (work: Promise<unknown>) => void;
  clock?: ClockBounds;
  throttled?: number;
}

export async function ingestTogether(db: Db, reports: Report[], options: TogetherOptions = {}): Promise<IngestResult> {
  const { keepAlive, clock, throttled = 0 } = options;
  const line = lineOf(db);
  const me: Waiting = { reports, throttled };
  line.waiting.push(me);
  let pause = POLL_MS;
  while (!me.answer) {
    if (me.takenAt !== undefined && Date.now() - me.takenAt > STALE_MS) {
      me.answer = new Failed(new Error("ingestion batch abandoned"), false);
      break;
    }
    if (line.current && Date.now() - line.current.startedAt > STALE_MS) line.current = null;
    if (!line.current) {
      const batch = { startedAt: Date.now(), clock };
      line.current = batch;
      // Requests started in this same turn of the event loop join this batch too.
      await Promise.resolve();
      const run = runBatch(db, line, batch);
      keepAlive?.(run);
      await run;
    } else {
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, MAX_POLL_MS);
    }
  }
  const outcome = me.answer;
  if (outcome instanceof ReportError) throw outcome;
  if (outcome instanceof Failed) {
    if (outcome.alone) throw outcome.error;
    return ingest(db, reports, { clock, throttled: throttledOf([me]) });
  }
  return outcome;
}

async function runBatch(db: Db, line: Line, batch: NonNullable<Line["current"]>) {
  const members = takeBatch(line.waiting);
  for (const m of members) m.takenAt = batch.startedAt;
  try {
    const answers = await ingestBatch(db, members.map((m) => m.reports), { clock: batch.clock, throttled: throttledOf(members) });
    members.forEach((m, i) => (m.answer = answers[i]!));
  } catch (error) {
    // Said out loud: a batch that keeps failing costs every member a second write, and the
    // cause (a bad row) is otherwise only seen as the one request that fails again alone.
    if (members.length > 1) console.warn(`ingest: combined batch of ${members.length} requests failed, each runs again on its own:`, error);
    for (const m of members) m.answer = new Failed(error, members.length === 1);
  } finally {
    if (line.current === batch) line.current = null;
  }
}

function throttledOf(members: Waiting[]) {
  const counts = new Map<string, number>();
  for (const m of members) if (m.throttled) counts.set(m.reports[0]!.deviceId, (counts.get(m.reports[0]!.deviceId) ?? 0) + m.throttled);
  return counts;
}

function takeBatch(waiting: Waiting[]) {
  let count = 0;
  let n = 0;
  while (n < waiting.length && (n === 0 || count + waiting[n]!.reports.length <= MAX_BATCH_REPORTS)) count += waiting[n++]!.reports.length;
  return waiting.splice(0, n);
}

function lineOf(db: Db): Line {
  const key = db.$client as object;
  let line = lines.get(key);
  if (!line) lines.set(key, (line = { waiting: [], current: null }));
  return line;
}
