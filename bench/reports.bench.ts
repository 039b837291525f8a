// Reports at fleet size (issue 22, docs/decisions/0020): a 30-day Summary of 1,000 vehicles, each
// driving 8 hours a day with a report every 10 s. Seeded through the development bulk endpoint
// (POST /api/dev/reports/rollups): each vehicle's working day is folded through the real trip
// detector and rollup and its day row stored for 30 days, what ingestion stores for such a month
// (86 million reports sent one by one would take this machine days). The reports read those rows.
import { gzipSync } from "node:zlib";
import { newWorkspace, orderBeacons } from "./fleet";
import { baseUrl, load, percentile, report } from "./lib";

const VEHICLES = 1000;
const DAYS = 30;
const { token, workspaceId } = await newWorkspace("Reports Bench");
const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
await fetch(`${baseUrl}/api/workspace/preferences`, {
  method: "PATCH",
  headers,
  body: JSON.stringify({ timeZone: "America/Chicago" }),
});
const beacons = await orderBeacons(token, workspaceId, VEHICLES);

const firstDay = "2026-10-01";
const lastDay = "2026-10-30";
const seedStarted = performance.now();
for (let i = 0; i < beacons.length; i += 50) {
  const res = await fetch(`${baseUrl}/api/dev/reports/rollups`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      vehicleIds: beacons.slice(i, i + 50).map((b) => b.vehicleId),
      firstDay,
      days: DAYS,
      hours: 8,
      everySeconds: 10,
    }),
  });
  if (!res.ok) throw new Error(`seed: ${res.status} ${await res.text()}`);
}
const seedSeconds = (performance.now() - seedStarted) / 1000;

let bytes = 0;
let rows = 0;
let totalMiles = 0;
const get =
  (name: string, format = "json") =>
  async () => {
    const res = await fetch(`${baseUrl}/api/reports/${name}?from=${firstDay}&to=${lastDay}&format=${format}`, {
      headers,
    });
    const body = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${name}: ${res.status} ${body.toString()}`);
    bytes = gzipSync(body).byteLength;
    if (format === "json") {
      const parsed = JSON.parse(body.toString()) as { rows: unknown[]; total?: { distanceMiles: number } };
      rows = parsed.rows.length;
      totalMiles = parsed.total?.distanceMiles ?? totalMiles;
    }
  };

await load(3, 1, get("summary")); // warm up
const summary = await load(20, 1, get("summary"));
const summaryRows = rows;
const summaryBytes = bytes;
const csv = await load(10, 1, get("summary", "csv"));
const daily = await load(5, 1, get("daily"));
const dailyRows = rows;

report(
  "Reports: a 30-day Summary of 1,000 vehicles",
  [
    {
      metric: `GET summary, ${VEHICLES.toLocaleString("en-US")} vehicles × ${DAYS} days, p50 (one at a time)`,
      value: Math.round(percentile(summary.latencies, 50)),
      unit: "ms",
      target: "< 2,000",
    },
    { metric: "same, p95", value: Math.round(percentile(summary.latencies, 95)), unit: "ms", target: "< 2,000" },
    { metric: "rows answered (and the fleet total)", value: summaryRows, unit: "rows" },
    { metric: "fleet distance in the month", value: Math.round(totalMiles), unit: "mi" },
    { metric: "answer size gzipped", value: Math.round(summaryBytes / 1024), unit: "KiB" },
    { metric: "same as CSV, p50", value: Math.round(percentile(csv.latencies, 50)), unit: "ms" },
    {
      metric: `GET daily (${dailyRows.toLocaleString("en-US")} rows), p50`,
      value: Math.round(percentile(daily.latencies, 50)),
      unit: "ms",
    },
    { metric: "seeding 30,000 vehicle-days through the rollup", value: Math.round(seedSeconds), unit: "s" },
  ],
  "Day rollups seeded through the development bulk endpoint (each vehicle's day folded by the real detector and rollup, then stored for 30 days); the reports read only those rows.",
);
