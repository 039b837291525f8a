import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import "../test-clock";

// Test files take turns in one workerd per vitest worker (`isolate: false` in vitest.worker.config.ts:
// starting workerd for every file was a quarter of the suite). Each file still starts as if alone:
// the Worker's modules are evaluated afresh (their per-isolate caches start empty), every Durable
// Object's storage is deleted, D1's included, and the real migrations are applied to that empty D1.
vi.resetModules();
await resetStorage();
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);

/**
 * Every Durable Object's storage deleted, D1's included, and D1 seen empty. About one file in a dozen
 * found the previous file's whole schema and rows still there after one `reset()` (work the previous
 * file left running holds D1 open, it seems); `applyD1Migrations` then skipped every migration as
 * applied and the file started on another file's data. Reset again until D1 is empty, and fail the
 * file loudly if it never is.
 */
async function resetStorage() {
  const tables = async () =>
    (await env.DB.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").first<{ n: number }>())?.n ??
    0;
  for (let attempt = 0; attempt < 10; attempt++) {
    await reset();
    if ((await tables()) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
  }
  throw new Error("D1 still holds the previous test file's tables after 10 resets");
}
