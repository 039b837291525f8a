// The cost report at fleet size (issue 42): 1,000 vehicles over 12 months, each with 50 fill-ups
// a month (600,000 fuel entries), 10 expenses a month (120,000), a service a month and a driven
// day every day (365,000 day rollups), written straight into the bench's local D1 (through the
// API, 600,000 fill-ups would take the shared machine hours; the API's own costs are measured by
// the Worker tests).
import { d1Query, newWorkspace, orderBeacons } from "./fleet";
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
const seedStarted = performance.now();
d1Query(
  [
    `UPDATE workspaces SET version = version + 1 WHERE id = ${ws};`,
    // A fill-up about every 7 hours; one in five partial; 300 miles between them on the odometer.
    `INSERT INTO fuel_entries (id, workspace_id, version, vehicle_id, at, volume_litres, cost_cents, full_tank, odometer_miles)`,
    ` SELECT lower(hex(randomblob(16))), ${ws}, ${version}, vid, ${start} + k * ${Math.floor((365 * DAY_MS) / fills)} + r * 1000,`,
    ` 40 + (k * 7 + r) % 20, 6000 + (k * 13 + r) % 3000, (k % 5) != 0, 1000 + k * 300`,
    ` FROM (${perVehicle(fills)});`,
    `INSERT INTO service_entries (id, workspace_id, version, vehicle_id, date, cost_cents)`,
    ` SELECT lower(hex(randomblob(16))), ${ws}, ${version}, vid, date(${start / 1000} + k * 30 * 86400, 'unixepoch'), 4500 + (r % 200) * 100`,
    ` FROM (${perVehicle(12)});`,
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
const byVehicle = await load(10, 1, get("vehicle"));
const vehicleRows = rows;
const byMonth = await load(5, 1, get("month"));
const monthRows = rows;
const csv = await load(5, 1, get("vehicle", "csv"));

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
      metric: "seeding 600,000 fill-ups, 120,000 expenses, 12,000 services, 365,000 day rollups",
      value: Math.round(seedSeconds),
      unit: "s",
    },
  ],
  "Seeded straight into the local D1 (INSERT … SELECT). Fuel and economy are summed in D1 (ADR 0061).",
);
