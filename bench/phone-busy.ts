// What a throttled phone's main thread and network did before a page's first content (issue 56's
// budgets), read from a Chromium trace of the load: the main thread's busy time, and the JavaScript
// fetched. A trace times tasks by the renderer's own clock, so a busy machine, which stretches the
// wall time between tasks, changes it far less than first content (docs/decisions/0096).
import type { Browser } from "@playwright/test";
import type { TraceEvent } from "./devtools";

/** performance.mark()ed by the phone bench's first-content script when the page's own content shows. */
export const FIRST_CONTENT_MARK = "bench-first-content";

const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"];

export interface Busy {
  /** ms the page's main thread ran tasks (union of top-level tasks) from navigation start to first content */
  busy: number;
  /** ms of those spent compiling and running JavaScript */
  script: number;
  /**
   * ms of this machine's CPU those tasks used (their thread time): about busy / 4 when the 4x
   * throttling shows in the tasks' durations, as it should; near busy if it does not.
   */
  cpu: number;
  /** the script time's biggest parts: top-level script events by file, ms, longest first (for the log) */
  byFile: [string, number][];
  /** JavaScript files the page and its workers finished fetching before first content */
  jsFiles: number;
  /** their bytes on the wire (0 for those the service worker answered) */
  jsTransferred: number;
  /** their bytes once decompressed */
  jsDecoded: number;
}

/** Starts a trace of the whole browser; `stop` reads it and answers the load's figures. */
export async function traceLoad(browser: Browser) {
  await browser.startTracing(undefined, { categories: CATEGORIES });
  return async (): Promise<Busy> => {
    const buffer = await browser.stopTracing();
    const parsed = JSON.parse(buffer.toString("utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
    return busyBeforeFirstContent(Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []));
  };
}

/** Total length of the union of intervals (tasks may nest: a nested run loop, a script inside a task). */
function unionLength(intervals: [number, number][]): number {
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of intervals.sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

const SCRIPT_EVENTS = new Set([
  "EvaluateScript",
  "FunctionCall",
  "v8.compile",
  "v8.compileModule",
  "v8.evaluateModule",
]);
const WORKER_THREADS = /^(CrRendererMain|DedicatedWorker thread)$/;

/** The address a navigationStart event loads (empty for a document with none, such as an SVG image's). */
const loaderUrl = (e: TraceEvent) => String(e.args?.data?.documentLoaderURL ?? "");

export function busyBeforeFirstContent(events: TraceEvent[]): Busy {
  const mark = events.find((e) => e.name === FIRST_CONTENT_MARK);
  if (!mark) throw new Error("The trace has no first-content mark");
  const main = (e: TraceEvent) => e.pid === mark.pid && e.tid === mark.tid;
  // The page's own document: Chromium draws an SVG favicon as a document of its own on the page's
  // main thread, whose navigationStart (no URL) can come long after the page's (ADR 0099).
  const navigationStart = events
    .filter((e) => main(e) && e.name === "navigationStart" && e.ts <= mark.ts && loaderUrl(e))
    .reduce((latest, e) => Math.max(latest, e.ts), -Infinity);
  const within = (names: (e: TraceEvent) => boolean) =>
    events
      .filter((e) => main(e) && e.ph === "X" && names(e) && e.dur !== undefined)
      .map((e): [number, number] => [Math.max(e.ts, navigationStart), Math.min(e.ts + e.dur!, mark.ts)])
      .filter(([from, to]) => to > from);
  const ms = (us: number) => us / 1000;
  const tasks = events.filter(
    (e) => main(e) && e.ph === "X" && e.name === "RunTask" && e.ts >= navigationStart && e.ts < mark.ts,
  );
  return {
    cpu: ms(tasks.reduce((sum, e) => sum + (e.tdur ?? 0), 0)),
    busy: ms(unionLength(within((e) => e.name === "RunTask"))),
    script: ms(unionLength(within((e) => SCRIPT_EVENTS.has(e.name)))),
    byFile: scriptByFile(events.filter((e) => main(e) && e.ts >= navigationStart && e.ts < mark.ts)),
    ...javascriptFetched(events, mark),
  };
}

/** Top-level script events (not inside another) by the file they ran, the five longest. */
function scriptByFile(events: TraceEvent[]): [string, number][] {
  const scripts = events
    .filter((e) => e.ph === "X" && SCRIPT_EVENTS.has(e.name) && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  const byFile = new Map<string, number>();
  let end = -Infinity;
  for (const e of scripts) {
    if (e.ts < end) continue;
    end = e.ts + e.dur!;
    const data = e.args?.data ?? {};
    const file = String(data.url ?? data.fileName ?? e.name).replace(/^https?:\/\/[^/]+/, "") || e.name;
    byFile.set(file, (byFile.get(file) ?? 0) + e.dur! / 1000);
  }
  return [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 5);
}

/** The page's own requests (its main thread and dedicated workers, not the service worker's precache). */
function javascriptFetched(events: TraceEvent[], mark: TraceEvent) {
  const threadNames = new Map(
    events.filter((e) => e.name === "thread_name" && e.pid === mark.pid).map((e) => [e.tid, e.args?.name ?? ""]),
  );
  const data = (e: TraceEvent) => e.args?.data ?? {};
  const scripts = new Set(
    events
      .filter((e) => e.pid === mark.pid && e.name === "ResourceSendRequest")
      .filter((e) => WORKER_THREADS.test(threadNames.get(e.tid) ?? ""))
      .filter((e) => /^https?:\/\/[^/]+\/.*\.m?js(\?|$)/.test(String(data(e).url)))
      .map((e) => String(data(e).requestId)),
  );
  const fromServiceWorker = new Set(
    events
      .filter((e) => e.name === "ResourceReceiveResponse" && data(e).fromServiceWorker === true)
      .map((e) => String(data(e).requestId)),
  );
  let jsFiles = 0;
  let jsTransferred = 0;
  let jsDecoded = 0;
  for (const e of events) {
    const d = data(e);
    if (e.name !== "ResourceFinish" || !scripts.has(String(d.requestId)) || d.didFail === true) continue;
    if (Number(d.finishTime) * 1e6 > mark.ts) continue;
    jsFiles++;
    if (!fromServiceWorker.has(String(d.requestId))) jsTransferred += Math.max(0, Number(d.encodedDataLength));
    jsDecoded += Math.max(0, Number(d.decodedBodyLength));
  }
  return { jsFiles, jsTransferred, jsDecoded };
}
