// The history API over a range (route, trip replay; docs/decisions/0014): one vehicle's 10-hour
// day at one report every 4 s (9,000 positions), asked for whole, as the trip replay and the day's
// route do. Answers are downsampled to at most 1,000 points; the numbers are the Worker's time to
// read and downsample them, against the no-op route as the yardstick.
import { gzipSync } from "node:zlib";
import { newWorkspace, orderBeacons, d1Query } from "./fleet";
import { baseUrl, load, percentile, report } from "./lib";

const REPORTS = 9000;
const EVERY_MS = 4000;

const { token, workspaceId } = await newWorkspace("History Bench");
const [beacon] = await orderBeacons(token, workspaceId, 1);
const t0 = Date.now() - 11 * 60 * 60_000;
// Straight into the bench's D1 in one statement: a winding road east of Toronto with a
// 20-minute stop in the middle (reports 4000 to 4299 at one place, speed 0).
d1Query(`WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${REPORTS - 1}),
  day(i, a) AS (SELECT i, CASE WHEN i < 4000 THEN i WHEN i < 4300 THEN 4000 ELSE i - 300 END FROM seq)
  INSERT INTO positions (beacon_id, recorded_at, workspace_id, vehicle_id, latitude, longitude, speed, fuel, received_at)
  SELECT '${beacon!.id}', ${t0} + i * ${EVERY_MS}, '${workspaceId}', '${beacon!.vehicleId}',
    43.6 + (a % 80) * 0.0002 - (a % 160 >= 80) * (a % 80) * 0.0004, -79.4 + a * 0.00005,
    CASE WHEN i >= 4000 AND i < 4300 THEN 0 ELSE 15 END, 50, ${t0} + i * ${EVERY_MS} FROM day`);

const url = `${baseUrl}/api/vehicles/${beacon!.vehicleId}/history?from=${t0}&to=${t0 + REPORTS * EVERY_MS}`;
const headers = { Authorization: `Bearer ${token}` };
let points = 0;
let bytes = 0;
const get = async () => {
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`history: ${res.status}`);
  points = (JSON.parse(new TextDecoder().decode(body)) as { points: unknown[] }).points.length;
  bytes = body.byteLength;
  gzipped = gzipSync(Buffer.from(body)).byteLength;
};
let gzipped = 0;
const noop = async () => void (await (await fetch(`${baseUrl}/api/health`)).arrayBuffer());

await load(5, 1, get); // warm up
const baseline = await load(200, 1, noop);
const history = await load(40, 1, get);
const p50 = percentile(history.latencies, 50);

report(
  "History API: a 10-hour day of one vehicle",
  [
    {
      metric: `GET history of ${REPORTS.toLocaleString("en-US")} positions, p50 (one at a time)`,
      value: p50,
      unit: "ms",
    },
    { metric: "same, p95", value: percentile(history.latencies, 95), unit: "ms" },
    {
      metric: "ratio to the no-op GET /api/health p50",
      value: Math.round((p50 / percentile(baseline.latencies, 50)) * 10) / 10,
      unit: "×",
    },
    { metric: "points answered", value: points, unit: "points", target: "≤ 1,000" },
    { metric: "answer size", value: Math.round(bytes / 1024), unit: "KiB" },
    { metric: "answer size gzipped", value: Math.round(gzipped / 1024), unit: "KiB" },
  ],
  "Positions inserted straight into D1 (9,000 at 4 s, a 20-minute stop); one request at a time.",
);
