import { setTimeout as sleep } from "node:timers/promises";
import { assignFleet, type SimBeacon } from "./fleet";
import { sendReport } from "./osmand-client";
import { advance, reportOf, type Resume } from "./vehicle";
import { followPump, type FillUpMade, type PumpStop } from "./refuel-stops";

export interface SimulationOptions {
  /** the app's origin, e.g. http://localhost:8787 */
  url: string;
  beacons: SimBeacon[];
  /** mean time between two reports of one vehicle; each wait is jittered by ±30 % */
  intervalMs: number;
  /** stop after this long (unbounded when absent) */
  durationMs?: number;
  /** stop after this many reports in all (unbounded when absent) */
  maxReports?: number;
  seed?: number;
  /** last known telemetry by vehicle id, so vehicles continue where they were */
  resume?: Map<string, Resume>;
  /** aborting it stops the simulation (Ctrl-C) */
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** a vehicle drove off from the pump: the demo logs its fill-up (not awaited: the tracker goes on reporting) */
  onFillUp?: (vehicleId: string, made: FillUpMade) => void;
  /** this many vehicles that start afresh begin just above the refuel mark (the demo's first fill-ups) */
  lowOnFuel?: number;
}

export interface SimulationStats {
  sent: number;
  accepted: number;
  rejected: number;
  /** network errors and 5xx */
  failed: number;
}

/**
 * Drives every beacon like a real tracker: each vehicle on its own clock, one report every few
 * seconds (with jitter), through the public ingestion endpoint only. Resolves with the counts once
 * stopped by the signal, the duration or the report budget, after in-flight reports finish.
 */
export async function runSimulation(opts: SimulationOptions): Promise<SimulationStats> {
  const log = opts.log ?? (() => {});
  const stats: SimulationStats = { sent: 0, accepted: 0, rejected: 0, failed: 0 };
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener("abort", onAbort);
  if (opts.signal?.aborted) stop.abort();
  const timer = opts.durationMs !== undefined ? setTimeout(() => stop.abort(), opts.durationMs) : null;
  let complaints = 0;

  const fleet = assignFleet(opts.beacons, Date.now(), {
    seed: opts.seed,
    resume: opts.resume,
    lowOnFuel: opts.lowOnFuel,
  });
  for (const a of fleet) log(`${a.beacon.vehicleId}: ${a.city}, ${a.route} (${a.form})`);

  const drive = async (a: (typeof fleet)[number]) => {
    // Spread the first reports over one interval, as real devices are not in step.
    let wait = a.random.between(0, opts.intervalMs);
    let pump: PumpStop | null = null;
    for (;;) {
      try {
        await sleep(wait, undefined, { signal: stop.signal });
      } catch {
        return; // aborted
      }
      if (opts.maxReports !== undefined && stats.sent >= opts.maxReports) {
        stop.abort();
        return;
      }
      stats.sent++;
      a.vehicle = advance(a.vehicle, Date.now(), a.random);
      const step = followPump(pump, a.vehicle);
      pump = step.open;
      if (step.made) opts.onFillUp?.(a.beacon.vehicleId, step.made);
      const result = await sendReport(opts.url, reportOf(a.vehicle), a.form);
      if (result.ok) stats.accepted++;
      else if (result.status >= 400 && result.status < 500) stats.rejected++;
      else stats.failed++;
      if (!result.ok && complaints++ < 10)
        log(`report for ${a.beacon.vehicleId} refused: ${result.status} ${result.error ?? ""}`);
      wait = opts.intervalMs * a.random.between(0.7, 1.3);
    }
  };

  const progress = setInterval(() => log(summary(stats)), 30_000);
  try {
    await Promise.all(fleet.map(drive));
  } finally {
    clearInterval(progress);
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  }
  return stats;
}

export const summary = (s: SimulationStats) =>
  `${s.sent} reports sent: ${s.accepted} accepted, ${s.rejected} refused, ${s.failed} failed`;
