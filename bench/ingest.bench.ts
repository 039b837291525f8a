// Ingestion throughput (issue 5): 50 beacons report concurrently over the OsmAnd protocol, each
// its own sequence of positions; accepted positions per second against the no-op /api/health at
// the same concurrency in the same run, and every acknowledged position found afterwards.
import { newWorkspace, orderBeacons, osmandUrl } from "./fleet";
import { baseUrl, load, percentile, serverCpuMs, report as write } from "./lib";

const BEACONS = 50;
const REPORTS = 5_000;
const CAP_MS = 60_000;

async function health() {
  const res = await fetch(`${baseUrl}/api/health`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`health: ${res.status}`);
}

const ws = await newWorkspace("Bench Ingest");
const beacons = await orderBeacons(ws.token, ws.workspaceId, BEACONS);

await load(200, BEACONS, health); // warm-up
let cpu = serverCpuMs();
const noopBefore = await load(2_000, BEACONS, health);
const noopCpuMs = (serverCpuMs() - cpu) / 2_000;

// Each beacon is one concurrent device sending its reports one after another, a second apart in
// device time, as a tracker does; the run stops at REPORTS in total or at CAP_MS.
const start = Date.now() - 86_400_000; // device time: yesterday, so no report is in the future
let sent = 0;
let acknowledged = 0;
let stored = 0;
const failures = new Map<string, number>();
const latencies: number[] = [];
const sentBy = beacons.map(() => 0);
const begun = performance.now();
cpu = serverCpuMs();
await Promise.all(
  beacons.map(async (beacon, b) => {
    for (let n = 0; sent < REPORTS && performance.now() - begun < CAP_MS; n++) {
      sent++;
      sentBy[b] = n + 1;
      const url = osmandUrl({
        id: beacon.id,
        lat: 40 + b * 0.01 + n * 0.0001,
        lon: -100 + n * 0.0001,
        timestamp: start + n * 1000,
        speed: 20,
        ignition: true,
      });
      const t = performance.now();
      try {
        const res = await fetch(url);
        const body = (await res.json()) as { outcomes?: string[]; error?: { code: string } };
        latencies.push(performance.now() - t);
        if (!res.ok) throw new Error(`${res.status} ${body.error?.code ?? ""}`);
        acknowledged++;
        if (body.outcomes?.[0] === "stored") stored++;
      } catch (error) {
        const key = String((error as Error).message).slice(0, 60);
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }
  }),
);
const seconds = (performance.now() - begun) / 1000;
const reportCpuMs = (serverCpuMs() - cpu) / sent;
latencies.sort((a, b) => a - b);

const noopAfter = await load(2_000, BEACONS, health);
const noop = (noopBefore.perSecond + noopAfter.perSecond) / 2;

// One device alone: the cost of a report without queueing behind 49 others.
const single: number[] = [];
for (let n = 0; n < 100; n++) {
  const t = performance.now();
  const res = await fetch(
    osmandUrl({
      id: beacons[0]!.id,
      lat: 41,
      lon: -101,
      timestamp: start + 10_000_000 + n * 1000,
      speed: 20,
      ignition: true,
    }),
  );
  await res.arrayBuffer();
  single.push(performance.now() - t);
}
single.sort((a, b) => a - b);
const singleHealth = await load(100, 1, health);

// Where a report's time goes, one device alone: a request that stops after one D1 read (an
// unknown device id, answered 400: a new id each time, since an id seen unknown is then refused
// from memory), the same id again (refused from memory, no D1), and ten reports in one request
// (the JSON variant), whose time per report is what remains once the HTTP and routing cost is shared.
const unknown = await load(100, 1, async (r) => {
  const res = await fetch(
    osmandUrl({ id: `bench-unknown-device-${r}-${Math.random()}`, lat: 41, lon: -101, timestamp: start }),
  );
  await res.arrayBuffer();
  if (res.status !== 400) throw new Error(`unknown device: ${res.status}`);
});
const unknownAgain = await load(100, 1, async () => {
  const res = await fetch(osmandUrl({ id: "bench-unknown-device", lat: 41, lon: -101, timestamp: start }));
  await res.arrayBuffer();
  if (res.status !== 400) throw new Error(`unknown device: ${res.status}`);
});
const batched = await load(20, 1, async (r) => {
  const location = Array.from({ length: 10 }, (_, k) => ({
    timestamp: start + 20_000_000 + (r * 10 + k) * 1000,
    coords: { latitude: 41 + k * 0.0001, longitude: -101, speed: 10 },
    extras: { ignition: true },
  }));
  const res = await fetch(`${baseUrl}/api/ingest/osmand`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ device_id: beacons[1]!.id, location }),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`batch: ${res.status}`);
});

// The timed run's reports only (the diagnostics above use later device times), read back through
// the history API (positions live in the workspace's object, docs/decisions/0023), in windows of
// 900 reports, fewer than the API's downsampling threshold.
let storedRows = 0;
for (const [b, beacon] of beacons.entries()) {
  for (let from = start; from < start + sentBy[b]! * 1000; from += 900_000) {
    const res = await fetch(`${baseUrl}/api/vehicles/${beacon.vehicleId}/history?from=${from}&to=${from + 899_999}`, {
      headers: { Authorization: `Bearer ${ws.token}` },
    });
    if (!res.ok) throw new Error(`history: ${res.status}`);
    storedRows += ((await res.json()) as { points: unknown[] }).points.length;
  }
}
const rate = stored / seconds;

write(
  "Ingestion throughput, 50 concurrent beacons",
  [
    { metric: "accepted positions per second", value: Math.round(rate), unit: "/s" },
    {
      metric: "no-op GET /api/health, 50 concurrent (mean of before and after)",
      value: Math.round(noop),
      unit: "req/s",
    },
    { metric: "ratio ingestion / no-op", value: rate / noop, unit: "×", target: "≥ 0.9×" },
    { metric: "server CPU per request (workerd), no-op", value: noopCpuMs, unit: "ms" },
    { metric: "server CPU per request (workerd), report", value: reportCpuMs, unit: "ms" },
    { metric: "reports sent", value: sent, unit: "" },
    { metric: "reports acknowledged (200, stored)", value: stored, unit: "" },
    { metric: "positions found in storage", value: storedRows, unit: "" },
    { metric: "lost (acknowledged but not stored)", value: Math.max(0, stored - storedRows), unit: "", target: "0" },
    { metric: "failed requests", value: sent - acknowledged, unit: "" },
    { metric: "report latency under load, p50", value: percentile(latencies, 50), unit: "ms" },
    { metric: "report latency under load, p95", value: percentile(latencies, 95), unit: "ms" },
    { metric: "report latency, one device alone, p50", value: percentile(single, 50), unit: "ms" },
    { metric: "no-op latency, one client alone, p50", value: percentile(singleHealth.latencies, 50), unit: "ms" },
    {
      metric: "unknown device id (one D1 read, 400), one client alone, p50",
      value: percentile(unknown.latencies, 50),
      unit: "ms",
    },
    {
      metric: "device id seen unknown a moment ago (refused from memory, 400), p50",
      value: percentile(unknownAgain.latencies, 50),
      unit: "ms",
    },
    {
      metric: "10 reports in one JSON request, one device alone, per report p50",
      value: percentile(batched.latencies, 50) / 10,
      unit: "ms",
    },
  ],
  [
    `${BEACONS} beacons, each a sequential device sending OsmAnd GET reports (lat, lon, timestamp, speed, ignition) with`,
    `increasing device time; ${sent.toLocaleString("en-US")} reports in ${seconds.toFixed(1)} s (bounded at ${REPORTS.toLocaleString("en-US")} reports or ${CAP_MS / 1000} s).`,
    `The no-op rate is measured at the same concurrency just before and just after. Stored positions are counted through`,
    `the history API after the run.`,
    `Breakdown, one device alone (p50): the no-op ${percentile(singleHealth.latencies, 50).toFixed(0)} ms, a request that makes one D1 read`,
    `${percentile(unknown.latencies, 50).toFixed(0)} ms, one report ${percentile(single, 50).toFixed(0)} ms, a report inside a 10-report JSON request`,
    `${(percentile(batched.latencies, 50) / 10).toFixed(0)} ms: the cost is per report in D1 (round trips that the local D1 runs one at a time),`,
    `not in HTTP or routing.`,
    failures.size ? `Failures: ${[...failures].map(([k, v]) => `${v} × ${k}`).join("; ")}.` : "",
  ].join(" "),
);
