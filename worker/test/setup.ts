import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import "../test-clock";

// Test files take turns in one workerd per vitest worker (`isolate: false` in vitest.worker.config.ts:
// starting workerd for every file was a quarter of the suite). Each file still starts as if alone:
// the Worker's modules are evaluated afresh (their per-isolate caches start empty), every Durable
// Object's storage is deleted, D1's included, and the real migrations are applied to that empty D1.
vi.resetModules();
await reset();
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
