import { env } from "cloudflare:workers";
import type { BatchItem } from "drizzle-orm/batch";
import { describe, expect, it } from "vitest";
import { FLUSH_TABLES, flushRows } from "../party/live-fleet/flush-tables";
import { ENGINE_HOURS_TABLE } from "../domain/fold/engine-hours";
import { JOB_PROGRESS_TABLE } from "../domain/jobs/module";
import { userWithWorkspace } from "../worker/test/factories";
import { bulkUpdate } from "./bulk";
import { database } from "../worker/test/db";
import { beacons, vehicles } from "./schema";

/**
 * Issue 51, finding 2: the workspace object's write-back of ETAs (and of engine hours, beacon
 * health, a vehicle's beacon status) must cost O(rows written) whatever the workspace holds. SQLite
 * planned `UPDATE jobs ... FROM json_each(...) WHERE jobs.id = ... AND jobs.workspace_id = ...` as
 * a scan of the workspace's jobs (by its workspace index) with the JSON searched for each: 7.1 s per
 * 500-row chunk at 15,000 jobs. Read from the plan: the table is searched by its primary key only.
 */
const db = () => database(env.DB);

type PlanRow = { detail: string };

async function planOf(statement: BatchItem<"sqlite">): Promise<string[]> {
  const { sql, params } = (statement as unknown as { getQuery(): { sql: string; params: unknown[] } }).getQuery();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<PlanRow>();
  return results.map((r) => r.detail);
}

/** The plan's lines about `table` (not its subqueries on other tables): each must be a key lookup. */
function expectKeyLookups(plan: string[], table: string) {
  const lines = plan.filter((d) => new RegExp(`\\b${table}\\b`).test(d) && !/json_each|\bj\b/.test(d));
  expect(lines.length, plan.join("\n")).toBeGreaterThan(0);
  for (const line of lines)
    expect(line, plan.join("\n")).toMatch(/^SEARCH \w+ USING (PRIMARY KEY|INDEX sqlite_autoindex_\w+) \(id=\?\)/);
}

describe("bulk updates look each row up by its key", () => {
  it("job ETAs and status (the object's job write-back)", async () => {
    const { workspaceId } = await userWithWorkspace();
    const rows = [0, 1].map((i) => ({
      table: JOB_PROGRESS_TABLE,
      row: { id: `job-${i}`, workspaceId, status: "en_route", eta: 1_800_000_000_000 + i, late: false },
    }));
    const [statement] = flushRows(db(), rows, { [JOB_PROGRESS_TABLE]: FLUSH_TABLES[JOB_PROGRESS_TABLE]! });
    expectKeyLookups(await planOf(statement!), "jobs");
  });

  it("engine hours (a vehicle's engine_seconds)", async () => {
    const { workspaceId } = await userWithWorkspace();
    const rows = [{ table: ENGINE_HOURS_TABLE, row: { id: "v-1", workspaceId, engineSeconds: 3_600 } }];
    const [statement] = flushRows(db(), rows, { [ENGINE_HOURS_TABLE]: FLUSH_TABLES[ENGINE_HOURS_TABLE]! });
    expectKeyLookups(await planOf(statement!), "vehicles");
  });

  it("a vehicle's beacon status and a beacon's health (the live fleet's flush, the beacon watch)", async () => {
    const { workspaceId } = await userWithWorkspace();
    const scope = (column: typeof vehicles.workspaceId | typeof beacons.workspaceId) => ({
      column,
      value: workspaceId,
    });
    const [vehicle] = bulkUpdate(db(), vehicles, [{ id: "v-1", beaconStatus: "ACTIVE" }], {
      key: vehicles.id,
      scope: scope(vehicles.workspaceId),
      stampVersion: vehicles.version,
      unless: { column: vehicles.beaconStatus, value: "ACTIVE" },
    });
    expectKeyLookups(await planOf(vehicle!), "vehicles");
    const [beacon] = bulkUpdate(db(), beacons, [{ id: "b-1", lastReportAt: 1_800_000_000_000 }], {
      key: beacons.id,
      scope: scope(beacons.workspaceId),
    });
    expectKeyLookups(await planOf(beacon!), "beacons");
  });
});
