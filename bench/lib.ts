// Helpers shared by the benchmarks (see scripts/bench.mjs for how they are run).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

export const baseUrl = process.env.BENCH_URL ?? "http://127.0.0.1:8877";

export interface BenchResult {
  metric: string;
  value: number;
  unit: string;
  target?: string;
}

export function report(title: string, results: BenchResult[], notes?: string) {
  const out = process.env.BENCH_OUT;
  const body = JSON.stringify({ title, results, notes }, null, 2);
  if (out) writeFileSync(out, body);
  else console.log(body);
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Runs `task` `total` times with at most `concurrency` in flight; returns each latency in ms. */
export async function load(total: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { latencies, seconds, perSecond: total / seconds };
}

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/**
 * CPU time (user + system, in ms) used so far by the local runtime's workerd processes (the
 * Worker, its objects, D1 and R2 all run in them): measured around a load, it says what a
 * request costs the server, apart from the client's own share of this machine's cores.
 */
export function serverCpuMs(): number {
  const { worker, devProxy } = serverCpuByProcess();
  return worker + devProxy;
}

/**
 * serverCpuMs split in two: `worker`, the workerd that runs the Worker, its objects, D1 and R2
 * (what production runs), and `devProxy`, the workerd of wrangler dev's own proxy in front of it
 * (it listens on the bench's port and forwards each request; production has no such hop). The
 * proxy keeps no state, so its CPU per request drifting from one minute to the next is the
 * machine's noise, a control for the Worker's.
 */
export function serverCpuByProcess(): { worker: number; devProxy: number } {
  const port = new URL(baseUrl).port;
  const ms = { worker: 0, devProxy: 0 };
  for (const pid of benchWorkerds()) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const cpu = ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
      const proxy = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`entry=127.0.0.1:${port}\0`);
      ms[proxy ? "devProxy" : "worker"] += cpu;
    } catch {
      // a process that ended meanwhile
    }
  }
  return ms;
}

/** The parent process id of `pid` (the 4th field of /proc/pid/stat), or null once it is gone. */
function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
  } catch {
    return null;
  }
}

/**
 * The workerd processes of the Worker this bench runs against: those descending from
 * scripts/bench.mjs (BENCH_PARENT), which starts the Worker and this bench, so other test runs on
 * a shared machine are not counted. Run on its own (no BENCH_PARENT), every workerd.
 */
function benchWorkerds(): number[] {
  const all = (() => {
    try {
      return execFileSync("pgrep", ["-x", "workerd"], { encoding: "utf8" })
        .trim()
        .split("\n")
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  })();
  const parent = Number(process.env.BENCH_PARENT);
  if (!parent) return all;
  return all.filter((pid) => {
    for (let p: number | null = pid, hops = 0; p && p > 1 && hops < 10; p = parentOf(p), hops++)
      if (p === parent) return true;
    return false;
  });
}
