import { env } from "cloudflare:workers";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "./schema";

/**
 * The SQL migrations are written by hand where drizzle-kit cannot (triggers, data moves), so
 * nothing but this test keeps `schema.ts` (what the code queries) and `migrations/*.sql` (what D1
 * holds) in step: every table, column (name, NOT NULL, primary key) and index the schema declares
 * must exist exactly so in a database built by the migrations, and the migrations must create no
 * table the schema does not know.
 */
const tables: SQLiteTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is SQLiteTable =>
  is(value, SQLiteTable),
);

interface ColumnInfo {
  name: string;
  notnull: number;
  pk: number;
}

async function columnsOf(table: string) {
  const { results } = await env.DB.prepare(`SELECT name, "notnull", pk FROM pragma_table_info(?)`)
    .bind(table)
    .all<ColumnInfo>();
  return Object.fromEntries(
    results.map((c) => [c.name, { notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 }]),
  );
}

describe("schema.ts and the migrations", () => {
  it("create the same tables", async () => {
    const { results } = await env.DB.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'`,
    ).all<{ name: string }>();
    expect(results.map((r) => r.name).sort()).toEqual(tables.map((t) => getTableConfig(t).name).sort());
  });

  for (const table of tables) {
    const config = getTableConfig(table);
    it(`agree on the columns and indexes of ${config.name}`, async () => {
      const primaryKeyColumns = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
      const declared = Object.fromEntries(
        config.columns.map((c) => [
          c.name,
          {
            notNull: c.notNull || c.primary || primaryKeyColumns.has(c.name),
            primaryKey: c.primary || primaryKeyColumns.has(c.name),
          },
        ]),
      );
      expect(await columnsOf(config.name)).toEqual(declared);

      const { results } = await env.DB.prepare(`SELECT name FROM pragma_index_list(?) WHERE origin = 'c'`)
        .bind(config.name)
        .all<{ name: string }>();
      // Column-level `.unique()` is an index too (drizzle names it `<table>_<column>_unique`).
      const uniques = config.columns.flatMap((c) => (c.isUnique && c.uniqueName ? [c.uniqueName] : []));
      expect(results.map((r) => r.name).sort()).toEqual(
        [...config.indexes.map((i) => i.config.name), ...uniques].sort(),
      );
    });
  }
});
