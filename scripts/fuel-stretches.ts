// Cuts the cost report's stored fuel stretches again from the fill-ups (docs/decisions/0078,
// migrations/0045), by the one rule the write paths use (shared/costs/fuel-economy.ts
// `storedStretchesOf`): after a restore of D1, a bulk load, or a raw fix of `fuel_entries`.
//   npx tsx scripts/fuel-stretches.ts --remote                         the deployed D1
//   npx tsx scripts/fuel-stretches.ts --local --persist-to .wrangler/x  a local one
// Any arguments are wrangler's own (`wrangler d1 execute DB <args>`). Vehicles are read and written
// a group at a time; a vehicle whose fill-ups are written meanwhile is left as its own write cut it
// and named at the end: run the script again for it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { storedStretchesOf, type LoggedFill } from "../shared/costs/fuel-economy";

/**
 * Vehicles read and written per wrangler call by default: a year of 600 fill-ups each is 60,000 rows
 * a read. Each call starts wrangler (seconds), so a local D1 is cut faster in larger groups.
 */
const VEHICLES_PER_GROUP = 100;
const ROWS_PER_INSERT = 500;

const bin = new URL("../node_modules/.bin", import.meta.url).pathname;

function d1(target: string[], args: string[]): { results: Record<string, unknown>[] }[] {
  const out = execFileSync(`${bin}/wrangler`, ["d1", "execute", "DB", ...target, "--json", ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" },
  });
  return JSON.parse(out) as { results: Record<string, unknown>[] }[];
}

/** A SQLite string literal: one escape, a doubled quote (as db/bulk.ts writes its JSON). */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

interface Vehicle {
  workspace_id: string;
  vehicle_id: string;
}

/** The newest version among a vehicle's fill-ups, as worker/fuel/fuel-stretches.ts checks it. */
const lastVersion = (v: Vehicle) =>
  `(SELECT coalesce(max(version), -1) FROM fuel_entries WHERE workspace_id = ${literal(v.workspace_id)} AND vehicle_id = ${literal(v.vehicle_id)})`;

const keyOf = (v: Vehicle) => `${v.workspace_id}|${v.vehicle_id}`;

/** The group's vehicles as one SQL condition (their keys as one JSON literal). */
function inGroup(group: Vehicle[]) {
  const keys = literal(JSON.stringify(group.map((v) => [v.workspace_id, v.vehicle_id])));
  return `(workspace_id, vehicle_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${keys}))`;
}

/** Each vehicle's newest fill-up version (tombstones too): it moves on any write of its fill-ups. */
function versionsOf(target: string[], group: Vehicle[]) {
  const [versions] = d1(target, [
    "--command",
    `SELECT workspace_id, vehicle_id, max(version) AS version FROM fuel_entries WHERE ${inGroup(group)} GROUP BY workspace_id, vehicle_id`,
  ]);
  return new Map(versions!.results.map((r) => [keyOf(r as unknown as Vehicle), Number(r.version)]));
}

/** A group's live fill-ups, read after their versions (a write between the two shows as a version moved). */
function readGroup(target: string[], group: Vehicle[]) {
  const version = versionsOf(target, group);
  const [fills] = d1(target, [
    "--command",
    `SELECT workspace_id, vehicle_id, id, at, volume_litres, full_tank, odometer_miles FROM fuel_entries WHERE deleted = 0 AND ${inGroup(group)}`,
  ]);
  const logs = new Map<string, LoggedFill[]>();
  for (const r of fills!.results) {
    const key = keyOf(r as unknown as Vehicle);
    const log = logs.get(key) ?? [];
    log.push({
      id: r.id as string,
      at: r.at as number,
      volumeLitres: r.volume_litres as number,
      fullTank: r.full_tank === 1,
      odometerMiles: (r.odometer_miles as number | null) ?? null,
    });
    logs.set(key, log);
  }
  return group.map((v) => ({ vehicle: v, log: logs.get(keyOf(v)) ?? [], version: version.get(keyOf(v)) ?? -1 }));
}

/** A vehicle's stretches replaced, only if its fill-ups are still those read (its version unchanged). */
function rewriteStatements(v: Vehicle, log: LoggedFill[], version: number) {
  const unchanged = `${lastVersion(v)} = ${version}`;
  const rows = storedStretchesOf(log).map((s) => [
    s.closeAt,
    s.closeId,
    s.miles,
    s.litres,
    s.largestLitres,
    s.doubtful ? 1 : 0,
    s.highestBefore,
    s.rate,
  ]);
  const mine = `workspace_id = ${literal(v.workspace_id)} AND vehicle_id = ${literal(v.vehicle_id)}`;
  const inserts = [];
  // A few hundred rows a statement keeps each under D1's 100 KB per statement.
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
    inserts.push(`INSERT INTO fuel_stretches (workspace_id, vehicle_id, close_at, close_id, miles, litres, largest_litres, doubtful, highest_before, rate)
      SELECT ${literal(v.workspace_id)}, ${literal(v.vehicle_id)}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
      FROM json_each(${literal(JSON.stringify(rows.slice(i, i + ROWS_PER_INSERT)))}) WHERE ${unchanged};`);
  return [`DELETE FROM fuel_stretches WHERE ${mine} AND ${unchanged};`, ...inserts];
}

/** Every vehicle's stretches (or one workspace's) cut again; answers the vehicles written meanwhile, to run again. */
export function rebuildFuelStretches(
  target: string[],
  { workspaceId, groupSize = VEHICLES_PER_GROUP }: { workspaceId?: string; groupSize?: number } = {},
): Vehicle[] {
  const where = workspaceId ? `WHERE workspace_id = ${literal(workspaceId)}` : "";
  const [listed] = d1(target, ["--command", `SELECT DISTINCT workspace_id, vehicle_id FROM fuel_entries ${where}`]);
  const vehicles = listed!.results as unknown as Vehicle[];
  const dir = mkdtempSync(join(tmpdir(), "fuel-stretches-"));
  const skipped: Vehicle[] = [];
  try {
    for (let i = 0; i < vehicles.length; i += groupSize) {
      const group = readGroup(target, vehicles.slice(i, i + groupSize));
      const file = join(dir, `group-${i}.sql`);
      writeFileSync(file, group.flatMap((g) => rewriteStatements(g.vehicle, g.log, g.version)).join("\n"));
      d1(target, ["--file", file, "--yes"]);
      const now = versionsOf(
        target,
        group.map((g) => g.vehicle),
      );
      for (const g of group) if (now.get(keyOf(g.vehicle)) !== g.version) skipped.push(g.vehicle);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return skipped;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const skipped = rebuildFuelStretches(process.argv.slice(2));
  if (skipped.length) console.log(`written meanwhile, run again for: ${JSON.stringify(skipped)}`);
  else console.log("fuel stretches cut again");
}
