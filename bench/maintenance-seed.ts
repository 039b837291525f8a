// Maintenance data for bench/maintenance.bench.ts, written straight into the bench's local D1 in
// a few INSERT … SELECT statements over the workspace's vehicles (through the API, 170,000
// records would take the shared machine an hour; the API's own costs are measured by the Worker
// tests). Ids are UUIDs, as the browser and the API make them; every row is stamped with a new
// workspace version, as a write through the API would leave it.
import { d1Query } from "./fleet";

const DAY_MS = 86_400_000;
/** A random version-4 UUID in SQL (lower case, as crypto.randomUUID() makes them). */
const UUID_SQL = [
  "lower(hex(randomblob(4)))",
  "'-'",
  "lower(hex(randomblob(2)))",
  "'-4'",
  "substr(lower(hex(randomblob(2))), 2)",
  "'-'",
  "substr('89ab', 1 + (abs(random()) % 4), 1)",
  "substr(lower(hex(randomblob(2))), 2)",
  "'-'",
  "lower(hex(randomblob(6)))",
].join(" || ");

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const bumpVersion = (ws: string) => `UPDATE workspaces SET version = version + 1 WHERE id = ${ws};`;
const versionOf = (ws: string) => `(SELECT version FROM workspaces WHERE id = ${ws})`;
/** `count` rows per vehicle, numbered k = 0 … count-1, with the vehicle's rowid as `r`. */
const perVehicle = (ws: string, count: number) =>
  `WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < ${count - 1}) SELECT v.id AS vid, v.rowid AS r, k.k AS k FROM vehicles v, k WHERE v.workspace_id = ${ws}`;

/**
 * Two schedules per vehicle (oil every 5,000 mi or 365 days; engine service every 250 engine hours),
 * last done 0-339 days ago, so about 3 % are due soon by days (announced already: no e-mail storm);
 * and 10 service entries per vehicle over the last two years.
 */
export function seedService(workspaceId: string, now = Date.now()) {
  const ws = quote(workspaceId);
  const daysAgo = "((r * 7 + k * 13) % 340)";
  d1Query(
    [
      bumpVersion(ws),
      `INSERT INTO service_schedules (id, workspace_id, version, vehicle_id, name, every_miles, every_engine_hours, every_days, last_done_at, last_done_odometer_miles, last_done_engine_hours, cycle, announced)`,
      ` SELECT ${UUID_SQL}, ${ws}, ${versionOf(ws)}, vid, CASE k WHEN 0 THEN 'Oil and filter' ELSE 'Engine service' END,`,
      ` CASE k WHEN 0 THEN 5000 END, CASE k WHEN 1 THEN 250 END, CASE k WHEN 0 THEN 365 END,`,
      ` ${now} - ${daysAgo} * ${DAY_MS}, 0, 0, 0, CASE WHEN k = 0 AND ${daysAgo} > 328 THEN '0:due_soon' END`,
      ` FROM (${perVehicle(ws, 2)});`,
      bumpVersion(ws),
      `INSERT INTO service_entries (id, workspace_id, version, vehicle_id, date, odometer_miles, description, cost_cents, vendor, created_at)`,
      ` SELECT ${UUID_SQL}, ${ws}, ${versionOf(ws)}, vid, date(${Math.floor(now / 1000)} - (k * 73 + r % 60) * 86400, 'unixepoch'),`,
      ` 1000 + k * 4000, CASE k % 3 WHEN 0 THEN 'Oil and filter' WHEN 1 THEN 'Tyres rotated' ELSE 'Brake pads' END, 4500 + (r % 200) * 100,`,
      ` 'Main Street Garage', ${now} - (k * 73 + r % 60) * ${DAY_MS}`,
      ` FROM (${perVehicle(ws, 10)});`,
    ].join("\n"),
  );
}

const TITLES = [
  "Brake light out",
  "Tyre pressure low",
  "Windscreen chip",
  "Oil leak",
  "Check engine light on",
  "Wiper blade torn",
];

/**
 * Five issues per vehicle (50,000 for 10,000 vehicles), numbered #1…: the first of each vehicle
 * open (one in four in progress), the other four closed months ago (not synced: read on demand).
 * Open ones have a reporter (the workspace's member), one in ten an assignee (the same member, so
 * My actions has work), one in five a due date, one in five a short description.
 * Returns the number of open or in-progress issues.
 */
export function seedIssues(workspaceId: string, now = Date.now()): number {
  const ws = quote(workspaceId);
  const member = `(SELECT user_id FROM memberships WHERE workspace_id = ${ws} LIMIT 1)`;
  const title = `CASE r % ${TITLES.length} ${TITLES.map((t, i) => `WHEN ${i} THEN ${quote(t)}`).join(" ")} END`;
  const open = "k = 0";
  d1Query(
    [
      bumpVersion(ws),
      `INSERT INTO issues (id, workspace_id, version, number, vehicle_id, title, description, priority, status, reported_by_user_id, assignee_user_id, due_date, created_at, updated_at)`,
      ` SELECT ${UUID_SQL}, ${ws}, ${versionOf(ws)}, row_number() OVER (ORDER BY k, r), vid, ${title},`,
      ` CASE WHEN ${open} AND r % 5 = 1 THEN 'Noticed on the morning round; driver reports it got worse.' END,`,
      ` CASE r % 4 WHEN 0 THEN 'low' WHEN 1 THEN 'medium' WHEN 2 THEN 'high' ELSE 'medium' END,`,
      ` CASE WHEN NOT (${open}) THEN 'closed' WHEN r % 4 = 3 THEN 'in_progress' ELSE 'open' END,`,
      ` ${member}, CASE WHEN ${open} AND r % 10 = 2 THEN ${member} END,`,
      ` CASE WHEN ${open} AND r % 5 = 3 THEN date(${Math.floor(now / 1000)} + (r % 30) * 86400, 'unixepoch') END,`,
      ` ${now} - (k * 40 + r % 30 + 1) * ${DAY_MS}, ${now} - (k * 40 + r % 30) * ${DAY_MS}`,
      ` FROM (${perVehicle(ws, 5)});`,
    ].join("\n"),
  );
  const [row] = d1Query<{ n: number }>(
    `SELECT count(*) AS n FROM issues WHERE workspace_id = ${ws} AND status IN ('open', 'in_progress')`,
  );
  return row?.n ?? 0;
}

/** How many rows of each maintenance table the workspace has (the bench's notes). */
export function maintenanceCounts(workspaceId: string) {
  const ws = quote(workspaceId);
  const count = (table: string) =>
    d1Query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ${ws}`)[0]?.n ?? 0;
  return { issues: count("issues"), schedules: count("service_schedules"), entries: count("service_entries") };
}
