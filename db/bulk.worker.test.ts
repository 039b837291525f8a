import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bumpVersion, database } from "../worker/test/db";
import { userWithWorkspace } from "../worker/test/factories";
import { BULK_JSON_CHARS, bulkInsert } from "./bulk";
import { vehicles, workspaces } from "./schema";

const db = () => database(env.DB);

describe("bulk writes (one statement for many rows)", () => {
  it("store every value as the column encodes it, quotes included, and stamp the workspace's new version", async () => {
    const a = await userWithWorkspace();
    const rows = [
      {
        id: crypto.randomUUID(),
        workspaceId: a.workspaceId,
        name: `O'Brien's van'); DROP TABLE vehicles; --`,
        year: 2019,
        deleted: false,
        version: 0,
      },
      {
        id: crypto.randomUUID(),
        workspaceId: a.workspaceId,
        name: 'Ünïcode "quoted" \\ truck',
        year: null,
        deleted: true,
        version: 0,
      },
    ];
    const statements = bulkInsert(db(), vehicles, rows, { onConflict: "nothing", stampVersion: vehicles.version });
    expect(statements).toHaveLength(1);
    await db().batch([bumpVersion(db(), a.workspaceId), ...statements]);

    const ws = await db().select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get();
    const stored = await db()
      .select()
      .from(vehicles)
      .where(eq(vehicles.workspaceId, a.workspaceId))
      .orderBy(asc(vehicles.year))
      .all();
    expect(stored.map((v) => ({ name: v.name, year: v.year, deleted: v.deleted, version: v.version }))).toEqual(
      expect.arrayContaining([
        { name: rows[0]!.name, year: 2019, deleted: false, version: ws!.version },
        { name: rows[1]!.name, year: null, deleted: true, version: ws!.version },
      ]),
    );
  });

  it("update the named columns of existing rows, and split past the statement size limit without losing a row", async () => {
    const a = await userWithWorkspace();
    const long = "x".repeat(200);
    const rows = Array.from({ length: Math.ceil((BULK_JSON_CHARS * 2.5) / 250) }, (_, i) => ({
      id: `bulk-${a.workspaceId}-${i}`,
      workspaceId: a.workspaceId,
      name: `${long}${i}`,
      version: 0,
    }));
    const first = bulkInsert(db(), vehicles, rows, { onConflict: "nothing", stampVersion: vehicles.version });
    expect(first.length).toBeGreaterThanOrEqual(3);
    await db().batch([bumpVersion(db(), a.workspaceId), ...first]);

    const renamed = rows.map((r) => ({ ...r, name: `renamed ${r.id}`, driver: "Dana" }));
    const update = bulkInsert(db(), vehicles, renamed, {
      onConflict: { target: [vehicles.id], set: [vehicles.name, vehicles.version] },
      stampVersion: vehicles.version,
    });
    await db().batch([bumpVersion(db(), a.workspaceId), ...update]);
    const stored = await db().select().from(vehicles).where(eq(vehicles.workspaceId, a.workspaceId)).all();
    expect(stored).toHaveLength(rows.length);
    expect(stored.every((v) => v.name === `renamed ${v.id}` && v.driver === null)).toBe(true);
  });
});
