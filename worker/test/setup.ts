import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import "../test-clock";

// Test files take turns in one workerd per vitest worker (`isolate: false` in vitest.worker.config.ts:
// starting workerd for every file was a quarter of the suite). Each file still starts as if alone:
// the Worker's modules are evaluated afresh (their per-isolate caches start empty), every Durable
// Object's storage is deleted, D1's included, and the real migrations are applied to that empty D1.
vi.resetModules();
await reset();
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
await applyAllMigrations(env.DB, TEST_MIGRATIONS);

interface D1Migration {
  name: string;
  queries: string[];
}

/**
 * What `applyD1Migrations` from cloudflare:test does on an empty D1 (wrangler's `d1_migrations`
 * table, then each migration's statements and its row), as ONE batch where it sends one per
 * migration: before every one of the suite's files, the 50 round trips to the D1 object were a
 * share of the setup vitest reports (docs/decisions/0101). A batch is one transaction, as each
 * migration's was, so a failing statement still fails the file.
 */
async function applyAllMigrations(db: D1Database, migrations: D1Migration[]) {
  const table = `CREATE TABLE IF NOT EXISTS "d1_migrations" (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT UNIQUE,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
  );`;
  const insert = db.prepare(`INSERT INTO "d1_migrations" (name) VALUES (?);`);
  await db.batch([
    db.prepare(table),
    ...migrations.flatMap((m) => [...m.queries.map((query) => db.prepare(query)), insert.bind(m.name)]),
  ]);
}
