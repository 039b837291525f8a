import { readdirSync, readFileSync } from "node:fs";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../db/schema";

/**
 * `npm run db:generate` writes a field's migration (docs/add-a-field.md) only while drizzle-kit's
 * journal names every migration (it numbers the next one after the last) and its newest snapshot
 * is the schema the migrations make (it diffs against it). A migration added by hand without
 * `--custom` breaks both, and the next generated one would recreate half the database: caught here.
 */
const dir = new URL("../migrations/", import.meta.url);
const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", dir), "utf8")) as { entries: { tag: string }[] };
const sqlFiles = readdirSync(dir)
  .filter((f) => f.endsWith(".sql"))
  .map((f) => f.slice(0, -4));
const snapshots = readdirSync(new URL("meta/", dir))
  .filter((f) => f.endsWith("_snapshot.json"))
  .sort();

describe("drizzle-kit's record of the migrations", () => {
  it("names every migration file in the journal, in order", () => {
    expect(journal.entries.map((e) => e.tag)).toEqual([...sqlFiles].sort());
  });

  it("keeps the newest snapshot at the newest migration, with the schema's tables and columns", () => {
    expect(snapshots.at(-1)!.slice(0, 4)).toBe(sqlFiles.sort().at(-1)!.slice(0, 4));
    const snapshot = JSON.parse(readFileSync(new URL(`meta/${snapshots.at(-1)}`, dir), "utf8")) as {
      tables: Record<string, { columns: Record<string, unknown> }>;
    };
    const inSnapshot = Object.fromEntries(
      Object.entries(snapshot.tables).map(([name, t]) => [name, Object.keys(t.columns).sort()]),
    );
    const inSchema = Object.fromEntries(
      (Object.values(schema) as unknown[])
        .filter((v): v is SQLiteTable => v instanceof SQLiteTable)
        .map((t) => getTableConfig(t))
        .map((c) => [c.name, c.columns.map((col) => col.name).sort()]),
    );
    expect(inSnapshot).toEqual(inSchema);
  });
});
