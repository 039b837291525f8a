import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Idempotent: only migrations not yet applied to this file's database run.
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
