import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { workspaceWithBeacon } from "../factories";

/**
 * The promise worker/test/setup.ts keeps now that test files take turns in one workerd: every file
 * starts as if it were the first. Two files (fresh-file-*.worker.test.ts) each check it and then
 * leave traces; whichever runs second fails if the first one's modules or data reached it.
 */
const usedBy = new Set<string>();

export async function expectFreshStart(file: string) {
  // A module kept from an earlier file would still hold that file's name.
  expect([...usedBy]).toEqual([]);
  usedBy.add(file);
  const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: unknown[] };
  const applied = await env.DB.prepare("SELECT count(*) AS n FROM d1_migrations").first<{ n: number }>();
  expect(applied?.n).toBe(TEST_MIGRATIONS.length);
  const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
  expect(users?.n).toBe(0);
  expect((await env.DEVICE_DIRECTORY.list()).keys).toEqual([]);
}

/** A user, a workspace and an ordered beacon (D1 rows, a KV entry): what the other file must not see. */
export async function leaveTraces() {
  await workspaceWithBeacon();
  const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
  expect(users?.n).toBe(1);
  expect((await env.DEVICE_DIRECTORY.list()).keys).toHaveLength(1);
}
