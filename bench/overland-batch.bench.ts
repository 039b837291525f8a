// Overland's largest batch (issue 44): 1,000 points of the app's own shape (~620 KB) in one
// request against batches of 200, the same points per round. Each size has its own device, whose
// track goes on from batch to batch; rounds alternate which size goes first, so the machine's drift
// falls on both alike. Per point: wall time of the requests, and the Worker's CPU.
import { overlandLargestBatch } from "../worker/fleet/fixtures/device-apps";
import { newWorkspace, orderBeacons } from "./fleet";
import { baseUrl, report as write, serverCpuByProcess } from "./lib";

const ROUNDS = 8;
const POINTS_PER_ROUND = 1_000;
const STEP_MS = 5_000;
const SIZES = [1_000, 200] as const;
// Device time: the rounds' points end before now (no report is ahead of the server's clock).
const start = Date.now() - 2 * ROUNDS * POINTS_PER_ROUND * STEP_MS;

const ws = await newWorkspace("Bench Overland batches");
const [big, small] = await orderBeacons(ws.token, ws.workspaceId, 2);
const deviceOf = { 1_000: big!.id, 200: small!.id };
const sent = { 1_000: 0, 200: 0 };
const totals = { 1_000: { ms: 0, cpuMs: 0, points: 0, bytes: 0 }, 200: { ms: 0, cpuMs: 0, points: 0, bytes: 0 } };
let failed = 0;

/** One batch of `size` points, the device's next ones in time. */
async function send(size: (typeof SIZES)[number], timed: boolean) {
  sent[size] += size;
  const body = JSON.stringify(overlandLargestBatch(deviceOf[size], start + sent[size] * STEP_MS, size, STEP_MS));
  const cpu = serverCpuByProcess().worker;
  const t = performance.now();
  const res = await fetch(`${baseUrl}/api/ingest/overland`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  const answer = (await res.json()) as { result?: string };
  const ms = performance.now() - t;
  if (!res.ok || answer.result !== "ok") failed++;
  if (!timed) return;
  const total = totals[size];
  total.ms += ms;
  total.cpuMs += serverCpuByProcess().worker - cpu;
  total.points += size;
  total.bytes += body.length;
}

// Warm-up: each device's first contact and a first batch of each size.
await send(200, false);
await send(1_000, false);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [...SIZES].reverse() : SIZES;
  for (const size of order) for (let n = 0; n < POINTS_PER_ROUND / size; n++) await send(size, true);
}

const perPoint = (size: (typeof SIZES)[number]) => totals[size].ms / totals[size].points;
const cpuPerPoint = (size: (typeof SIZES)[number]) => totals[size].cpuMs / totals[size].points;
write(
  "Overland: its largest batch (1,000 points) against batches of 200",
  [
    {
      metric: "bytes per 1,000-point request (the app's shape)",
      value: Math.round(totals[1_000].bytes / (totals[1_000].points / 1_000)),
      unit: "bytes",
    },
    { metric: "ingestion per point, batches of 1,000", value: Number((perPoint(1_000) * 1000).toFixed(1)), unit: "µs" },
    { metric: "ingestion per point, batches of 200", value: Number((perPoint(200) * 1000).toFixed(1)), unit: "µs" },
    {
      metric: "per point, 1,000 ÷ 200",
      value: Number((perPoint(1_000) / perPoint(200)).toFixed(2)),
      unit: "x",
      target: "<= 1.2",
    },
    {
      metric: "Worker CPU per point, 1,000 ÷ 200",
      value: Number((cpuPerPoint(1_000) / cpuPerPoint(200)).toFixed(2)),
      unit: "x",
    },
    {
      metric: "Worker CPU per point, batches of 1,000",
      value: Number((cpuPerPoint(1_000) * 1000).toFixed(1)),
      unit: "µs",
    },
    { metric: "requests not answered { result: ok }", value: failed, unit: "requests", target: "0" },
  ],
  `${ROUNDS} rounds of ${POINTS_PER_ROUND} points per size, sizes alternating first; one device per size, its track continuing; each request waits for the one before (as the app sends).`,
);
