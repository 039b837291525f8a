// Helpers shared by the benchmarks (see scripts/bench.mjs for how they are run).
import { writeFileSync } from "node:fs";

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
