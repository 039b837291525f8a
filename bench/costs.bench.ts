// The cost report at fleet size (issue 42): 1,000 vehicles over 12 months, each with 50 fill-ups
// a month (600,000 fuel entries), 10 expenses a month (120,000), a service a month (recorded by a
// completed work order with three lines since issue 55: 12,000 orders, 36,000 lines) and a driven
// day every day (365,000 day rollups), written straight into the bench's local D1 (through the
// API, 600,000 fill-ups would take the shared machine hours; the API's own costs are measured by
// the Worker tests).
import { execFileSync } from "node:child_process";
import { rebuildFuelStretches } from "../scripts/fuel-stretches";
import { newWorkspace, orderBeacons } from "./fleet";
import { baseUrl, load, percentile, report } from "./lib";

const VEHICLES = 1000;
const FILLS_PER_MONTH = 50;
const EXPENSES_PER_MONTH = 10;
const EXPENSE_KINDS = ["insurance", "registration", "tolls", "parking", "lease", "repair", "other"];
const FROM = "2025-11-01";
const TO = "2026-10-31";
const DAY_MS = 86_400_000;

const { token, workspaceId } = await newWorkspace("Costs Bench");
const headers = { Authorization: `Bearer ${token}` };
await fetch(`${baseUrl}/api/workspace/preferences`, {
  method: "PATCH",
  headers: { ...headers, "Content-Type": "application/json" },
  body: JSON.stringify({ timeZone: "America/Chicago" }),
});
await orderBeacons(token, workspaceId, VEHICLES);

const ws = `'${workspaceId}'`;
const version = `(SELECT version FROM workspaces WHERE id = ${ws})`;
const perVehicle = (count: number) =>
  `WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < ${count - 1}) SELECT v.id AS vid, v.rowid AS r, k.k AS k FROM vehicles v, k WHERE v.workspace_id = ${ws}`;
const start = Date.parse(`${FROM}T12:00:00-05:00`);
const fills = FILLS_PER_MONTH * 12;
const step = Math.floor((365 * DAY_MS) / fills);
/** Each statement's own time in the local D1 (ms, as it reports it), without wrangler's start. */
function d1Durations(sql: string): number[] {
  const bin = new URL("../node_modules/.bin", import.meta.url).pathname;
  const out = execFileSync(
    `${bin}/wrangler`,
    ["d1", "execute", "DB", "--local", "--persist-to", process.env.BENCH_PERSIST!, "--json", "--command", sql],
    { encoding: "utf8", env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" } },
  );
  return (JSON.parse(out) as { meta: { duration: number } }[]).map((r) => r.meta.duration);
}

const progress = (what: string) => console.error(`${new Date().toISOString()} costs bench: ${what}`);
progress("seeding");
const seedStarted = performance.now();
// Fill-ups in bulk as a restore would load them, then every vehicle's stretches cut by the documented
// rebuild (scripts/fuel-stretches.ts, ADR 0078); the writes below go through the API, which cuts their own.
d1Durations(
  [
    `UPDATE workspaces SET version = version + 1 WHERE id = ${ws};`,
    // A fill-up about every 7 hours; one in five partial; 300 miles between them on the odometer.
    `INSERT INTO fuel_entries (id, workspace_id, version, vehicle_id, at, volume_litres, cost_cents, full_tank, odometer_miles)`,
    ` SELECT lower(hex(randomblob(16))), ${ws}, ${version}, vid, ${start} + k * ${step} + r * 1000,`,
    ` 40 + (k * 7 + r) % 20, 6000 + (k * 13 + r) % 3000, (k % 5) != 0, 1000 + k * 300`,
    ` FROM (${perVehicle(fills)});`,
    // A service a month, each recorded by a completed work order (issue 55): its labour and parts
    // split on the entry, the order and three lines beside it (the report reads the entries alone).
    `INSERT INTO service_entries (id, workspace_id, version, vehicle_id, date, cost_cents, labor_cents, parts_cents, work_order_id)`,
    ` SELECT lower(hex(randomblob(16))), ${ws}, ${version}, vid, date(${start / 1000} + k * 30 * 86400, 'unixepoch'),`,
    ` 4500 + (r % 200) * 100, 2500 + (r % 100) * 50, 1500, 'wo-' || vid || '-' || k`,
    ` FROM (${perVehicle(12)});`,
    `INSERT INTO work_orders (id, workspace_id, version, number, vehicle_id, status, completed_at)`,
    ` SELECT 'wo-' || vid || '-' || k, ${ws}, ${version}, r * 12 + k + 1, vid, 'completed', ${start} + k * 30 * ${DAY_MS}`,
    ` FROM (${perVehicle(12)});`,
    `INSERT INTO work_order_lines (id, workspace_id, version, work_order_id, kind, quantity, unit_cost_cents)`,
    ` SELECT lower(hex(randomblob(16))), ${ws}, ${version}, 'wo-' || vid || '-' || (k / 3), CASE k % 3 WHEN 0 THEN 'labor' ELSE 'part' END, 1, 750`,
    ` FROM (${perVehicle(36)});`,
    // An expense about every 3 days, the kinds in turn.
    `INSERT INTO expenses (id, workspace_id, version, vehicle_id, date, kind, cost_cents)`,
    ` SELECT lower(hex(randomblob(16))), ${ws}, ${version}, vid, date(${start / 1000} + (k * 365 / ${EXPENSES_PER_MONTH * 12}) * 86400, 'unixepoch'),`,
    ` json_extract('${JSON.stringify(EXPENSE_KINDS)}', '$[' || ((k + r) % ${EXPENSE_KINDS.length}) || ']'), 500 + (k * 17 + r) % 5000`,
    ` FROM (${perVehicle(EXPENSES_PER_MONTH * 12)});`,
    `INSERT INTO vehicle_day_rollups (vehicle_id, day, workspace_id, distance_metres)`,
    ` SELECT vid, date(${start / 1000} + k * 86400, 'unixepoch'), ${ws}, 100000 + (r * 7 + k) % 50000`,
    ` FROM (${perVehicle(365)});`,
  ].join("\n"),
);
const seedSeconds = (performance.now() - seedStarted) / 1000;
const cutStarted = performance.now();
// The whole fleet in one group: on a local D1 the time is mostly wrangler starting, once per call.
const writtenMeanwhile = rebuildFuelStretches(["--local", "--persist-to", process.env.BENCH_PERSIST!], {
  workspaceId,
  groupSize: VEHICLES,
});
if (writtenMeanwhile.length) throw new Error(`rebuild skipped ${writtenMeanwhile.length} vehicles`);
const cutAllSeconds = (performance.now() - cutStarted) / 1000;
progress(`seeded in ${Math.round(seedSeconds)} s, stretches cut in ${cutAllSeconds} s`);
// After the long seeding pause the client's kept-alive sockets may have been closed by wrangler dev.
for (let i = 0; i < 6; i++)
  await fetch(`${baseUrl}/api/health`)
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);

let rows = 0;
let total = 0;
const get =
  (by: string, format = "json") =>
  async () => {
    const res = await fetch(`${baseUrl}/api/reports/costs?from=${FROM}&to=${TO}&by=${by}&format=${format}`, {
      headers,
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`costs: ${res.status} ${body.slice(0, 300)}`);
    if (format === "json") {
      const parsed = JSON.parse(body) as { rows: unknown[]; total: { totalCostCents: number } };
      rows = parsed.rows.length;
      total = parsed.total.totalCostCents;
    }
  };

await load(2, 1, get("vehicle")); // warm up
progress("reading");
const byVehicle = await load(10, 1, get("vehicle"));
const vehicleRows = rows;
const byMonth = await load(5, 1, get("month"));
const monthRows = rows;
const csv = await load(5, 1, get("vehicle", "csv"));

// What a write of a fill-up costs now that the API cuts its vehicle's stretches (ADR 0078): the
// request's own time, appending a fill-up to a vehicle's year of 600, against logging an expense
// (a write with no stretches) for the same vehicles, alternately, in one run.
const [listed] = JSON.parse(
  execFileSync(
    new URL("../node_modules/.bin/wrangler", import.meta.url).pathname,
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      process.env.BENCH_PERSIST!,
      "--json",
      "--command",
      `SELECT id FROM vehicles WHERE workspace_id = ${ws} ORDER BY id LIMIT 30`,
    ],
    { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  ),
) as { results: { id: string }[] }[];
const post = async (path: string, body: unknown) => {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`${path}: ${res.status}`);
  return performance.now() - started;
};
const fillUpWrites: number[] = [];
const expenseWrites: number[] = [];
progress("writing");
for (const [k, { id: vehicleId }] of listed!.results.entries()) {
  const at = new Date(start + (fills + k) * step).toISOString();
  fillUpWrites.push(
    await post("/api/fuel-entries", {
      vehicleId,
      at,
      volumeLitres: 45,
      fullTank: true,
      odometerMiles: 1000 + (fills + k) * 300,
    }),
  );
  expenseWrites.push(await post("/api/expenses", { vehicleId, date: at.slice(0, 10), kind: "tolls", costCents: 500 }));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

report(
  "Cost report: 1,000 vehicles over 12 months",
  [
    {
      metric: `GET costs by vehicle, ${VEHICLES.toLocaleString("en-US")} vehicles × 12 months × ${FILLS_PER_MONTH} fill-ups, p50`,
      value: Math.round(percentile(byVehicle.latencies, 50)),
      unit: "ms",
      target: "< 2,000",
    },
    { metric: "same, p95", value: Math.round(percentile(byVehicle.latencies, 95)), unit: "ms", target: "< 2,000" },
    { metric: "rows answered", value: vehicleRows, unit: "rows" },
    {
      metric: `GET costs by month (${monthRows} rows), p50`,
      value: Math.round(percentile(byMonth.latencies, 50)),
      unit: "ms",
      target: "< 2,000",
    },
    { metric: "by vehicle as CSV, p50", value: Math.round(percentile(csv.latencies, 50)), unit: "ms" },
    { metric: "fleet total cost", value: Math.round(total / 100), unit: "$" },
    {
      metric: `fill-up appended through the API, its stretches cut (median of ${fillUpWrites.length})`,
      value: Math.round(median(fillUpWrites) * 10) / 10,
      unit: "ms",
    },
    {
      metric: "expense logged through the API (same vehicles, same run)",
      value: Math.round(median(expenseWrites) * 10) / 10,
      unit: "ms",
    },
    {
      metric: "cutting the stretches of 600,000 fill-ups (the rebuild, scripts/fuel-stretches.ts)",
      value: Math.round(cutAllSeconds * 10) / 10,
      unit: "s",
    },
    {
      metric: "seeding 600,000 fill-ups, 120,000 expenses, 12,000 services, 365,000 day rollups",
      value: Math.round(seedSeconds),
      unit: "s",
    },
  ],
  "Seeded straight into the local D1 (INSERT … SELECT; the stretches cut once after, by the rebuild). Fuel summed in D1 (ADR 0061), economy from the stored stretches (ADR 0064), cut by the API's writes (ADR 0078). Write times are the requests' own.",
);
