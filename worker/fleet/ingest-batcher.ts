import type { IngestAnswer } from "../../party/live-fleet/live-fleet";
import type { Env } from "../env";
import { ingestInWorkspace } from "../workspace-object";
import { requestSize, type IngestRequest } from "../../domain/fold/ingest-request";

/**
 * Concurrent beacon requests of one workspace share one call into its object
 * (docs/decisions/0007-ingestion-batching.md, 0016 part 4): while one call is in flight, the
 * requests that arrive wait and then go together in the next one. An idle isolate starts a
 * request's call at once, so nothing waits for a timer.
 *
 * Workers tie I/O and promises to the request that created them: a request that awaits a promise
 * another request resolves can hang or be cancelled (workerd reports "Promise will never
 * complete"). So requests share plain data only. A call is made by one of the waiting requests
 * (the leader), inside its own context, and it writes each member's answer into the member's
 * slot; the others look at their slot on their own timer, and the first to see no call in
 * flight leads the next one. A waiter sleeps until the call in flight is expected to end (the
 * mean of the line's recent calls), then polls at POLL_MS backing off to MAX_POLL_MS: every wake
 * is a turn of JS on the isolate that also runs the calls (fixed 1-4 ms polls woke each waiter
 * about 30 times per report at 50 concurrent beacons).
 *
 * Failure isolation: if the combined call fails (the object stores all of it or none of it),
 * every request of it runs again on its own, so one bad report cannot fail the others, except
 * when the object says it is overloaded: running every member again would multiply the load
 * that overloaded it, so each member fails with it (the device retries later). A call
 * whose leader vanished (its request cancelled mid-flight) is given up after STALE_MS: its
 * members run on their own and the line moves on.
 */

/** A call takes requests in arrival order up to this many reports (JSON requests carry up to 500). */
export const MAX_BATCH_REPORTS = 500;
/** How often a waiting request looks for its answer once its call is overdue: after 1 ms, then backing off to 4 ms. */
export const POLL_MS = 1;
export const MAX_POLL_MS = 4;
/** How long a call on a busy line waits for more requests before it starts. */
const GATHER_MS = 1;
/** The longest sleep on an expected call end (a call slower than usual is then polled). */
const MAX_EXPECTED_MS = 50;
/** A call still in flight after this long is taken as abandoned. */
export const STALE_MS = 15_000;

/** The call as a whole failed: `alone` when this request was its only member (no point retrying). */
class Failed {
  constructor(
    readonly error: unknown,
    readonly alone: boolean,
  ) {}
}

interface Waiting {
  request: IngestRequest;
  answer?: IngestAnswer | Failed;
  /** When a call took it (to give up on a vanished leader). */
  takenAt?: number;
}

interface Line {
  waiting: Waiting[];
  /** The call in flight, if any. */
  current: { startedAt: number } | null;
  /** The recent calls' mean duration (ms, exponentially weighted; 0: none yet). */
  callMs: number;
}

/** One line per workspace: its requests share calls into its object. */
const lines = new Map<string, Line>();

/** What the object needs besides the reports (one configuration per isolate: the leader's holds for its call). */
export interface CallOptions {
  clock: { maxAheadMs: number; maxBehindMs: number };
  scale: number;
  flushMs?: number;
  geocoderToken?: string;
}

/**
 * Ingests one request's reports (one beacon's, any order) together with whatever else of the same
 * workspace arrives meanwhile; resolves to this request's own answer. `keepAlive` (the request's
 * waitUntil) keeps a call this request leads running even if its client goes away, since other
 * requests wait for it.
 */
export async function ingestTogether(
  env: Env,
  workspaceId: string,
  request: IngestRequest,
  options: CallOptions,
  keepAlive?: (work: Promise<unknown>) => void,
): Promise<IngestAnswer> {
  const line = lineOf(workspaceId);
  const me: Waiting = { request };
  line.waiting.push(me);
  let overdue = POLL_MS;
  while (!me.answer) {
    if (me.takenAt !== undefined && Date.now() - me.takenAt > STALE_MS) {
      me.answer = new Failed(new Error("ingestion call abandoned"), false);
      break;
    }
    if (line.current && Date.now() - line.current.startedAt > STALE_MS) line.current = null;
    if (!line.current) {
      const call = { startedAt: Date.now() };
      line.current = call;
      // Requests started in this same turn of the event loop join this call too; on a busy line
      // (a call ended moments ago), one more millisecond lets more in: 30% fewer calls into the
      // object at 50 concurrent beacons, 4.7 -> 6.7 requests a call. A lone report waits for nothing.
      await (line.callMs ? new Promise((resolve) => setTimeout(resolve, GATHER_MS)) : Promise.resolve());
      const run = runCall(env, workspaceId, line, call, options);
      keepAlive?.(run);
      await run;
    } else {
      const expected = line.current.startedAt + line.callMs - Date.now();
      const pause = expected >= POLL_MS ? Math.min(expected, MAX_EXPECTED_MS) : overdue;
      if (expected < POLL_MS) overdue = Math.min(overdue * 2, MAX_POLL_MS);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  const outcome = me.answer;
  if (!(outcome instanceof Failed)) return outcome;
  if (outcome.alone) throw outcome.error;
  const [alone] = await ingestInWorkspace(env, workspaceId, [request], options);
  return alone!;
}

async function runCall(
  env: Env,
  workspaceId: string,
  line: Line,
  call: NonNullable<Line["current"]>,
  options: CallOptions,
) {
  const members = takeBatch(line.waiting);
  for (const m of members) m.takenAt = call.startedAt;
  try {
    const answers = await ingestInWorkspace(
      env,
      workspaceId,
      members.map((m) => m.request),
      options,
    );
    members.forEach((m, i) => (m.answer = answers[i]!));
    const took = Date.now() - call.startedAt;
    line.callMs = line.callMs ? 0.8 * line.callMs + 0.2 * took : took;
  } catch (error) {
    // Said out loud: a call that keeps failing costs every member a second call, and the
    // cause (a bad row) is otherwise only seen as the one request that fails again alone.
    const overloaded = isOverloaded(error);
    if (members.length > 1 && !overloaded)
      console.warn(`ingest: combined call of ${members.length} requests failed, each runs again on its own:`, error);
    for (const m of members) m.answer = new Failed(error, members.length === 1 || overloaded);
  } finally {
    if (line.current === call) line.current = null;
    if (!line.current && !line.waiting.length) lines.delete(workspaceId);
  }
}

/** The Durable Object refused the call for load (its `.overloaded` flag, docs: Durable Objects error handling). */
export function isOverloaded(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { overloaded?: unknown }).overloaded === true;
}

function takeBatch(waiting: Waiting[]) {
  let count = 0;
  let n = 0;
  while (n < waiting.length && (n === 0 || count + requestSize(waiting[n]!.request) <= MAX_BATCH_REPORTS))
    count += requestSize(waiting[n++]!.request);
  return waiting.splice(0, n);
}

function lineOf(workspaceId: string): Line {
  let line = lines.get(workspaceId);
  if (!line) lines.set(workspaceId, (line = { waiting: [], current: null, callMs: 0 }));
  return line;
}
