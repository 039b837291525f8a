/**
 * The write path cannot be skipped (issue 52, docs/decisions/0081), checked by `npm run typecheck`
 * (tsconfig.worker.json compiles this file; nothing runs it). Each `@ts-expect-error` below is a
 * bypass that compiled before: a plain write of a live table, a versioned batch committed with no
 * announcement, a row stamped with the workspace's version with no bump. Should one compile again,
 * its directive is unused, which tsc reports as an error. The last functions are the ways that
 * compile, so the restriction is seen to be no wider than meant.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { alerts, jobs, places, telemetry, vehicleEvents, vehicles } from "../db/schema";
// @ts-expect-error the version's bump and stamp are private to the one writer (db/writer.ts)
import { bumpVersion, versionOf } from "../db/workspace-version";
// @ts-expect-error no commit without an announcement is exported (db/writer.ts keeps it private too)
import { versionedBatch } from "./workspace-object";
import { commitWorkspaceWrite, type WriteContext } from "./workspace-object";

/** Bypass 1: a plain write of a live table through the handle every module gets. */
export function plainWrites(db: Db) {
  return [
    // @ts-expect-error a live table cannot be updated through `Db`
    db.update(vehicles).set({ name: "renamed" }),
    // @ts-expect-error nor inserted into
    db.insert(jobs),
    // @ts-expect-error nor deleted from
    db.delete(alerts),
    // @ts-expect-error every live table is one (db/live-tables.ts)
    db.delete(telemetry),
    // @ts-expect-error vehicle_events too
    db.delete(vehicleEvents),
    // @ts-expect-error raw SQL that writes has no way through `Db` either
    db.run(sql`UPDATE vehicles SET name = 'renamed'`),
    // @ts-expect-error nor a CTE's builder
    db.with().update(vehicles),
    // @ts-expect-error nor a transaction's handle (D1 has none anyway)
    db.transaction(async () => {}),
    // @ts-expect-error nor the raw binding's `prepare`
    db.$client.prepare("UPDATE vehicles SET name = 'renamed'"),
  ];
}

/** Bypass 2: a versioned batch with no announcement. */
export async function unannouncedBatch(db: Db, workspaceId: string) {
  await versionedBatch(db, workspaceId, () => []);
}

/** Bypass 3: rows stamped with the workspace's version, committed with no bump. */
export async function stampWithoutBump(db: Db, workspaceId: string) {
  await db.batch([db.update(places).set({ name: "Depot", version: versionOf(workspaceId) })]);
  await db.batch([bumpVersion(db, workspaceId)]);
}

/** What compiles: writes of other tables through `Db`, and live writes inside the one writer's commit. */
export async function theWayThrough(w: WriteContext, workspaceId: string) {
  await w.db.batch([w.db.update(places).set({ name: "Depot" })]);
  await commitWorkspaceWrite(w, workspaceId, (stamp, live) => [
    live.update(vehicles).set({ name: "renamed", version: stamp }),
  ]);
}
