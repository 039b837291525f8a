import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "../worker/test/db";
import { users, workspaces } from "./schema";

/**
 * Issue 52, "one clock": a row's creation time is the clock the rules that compare against it read
 * (the Worker's, shifted in a run at a chosen hour), not D1's `unixepoch()`, which the column's SQL
 * default would give. Two days ahead is far past any skew between the two.
 */
describe("rows Drizzle inserts", () => {
  afterEach(() => vi.useRealTimers());

  it("take their creation time from the Worker's clock, not D1's", async () => {
    const ahead = Date.now() + 2 * 86_400_000;
    vi.useFakeTimers({ toFake: ["Date"], now: ahead });
    const db = database(env.DB);
    const id = crypto.randomUUID();
    await db.insert(users).values({ id, email: `clock-${id.slice(0, 8)}@example.com` });
    await db.insert(workspaces).values({ id, name: "Clock" });
    const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, id));
    const [workspace] = await db
      .select({ createdAt: workspaces.createdAt })
      .from(workspaces)
      .where(eq(workspaces.id, id));
    expect(user!.createdAt).toBeGreaterThanOrEqual(ahead);
    expect(workspace!.createdAt).toBeGreaterThanOrEqual(ahead);
  });
});
