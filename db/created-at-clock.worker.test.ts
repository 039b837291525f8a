import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { database } from "../worker/test/db";
import { insertAlertRuleUnderCap, insertPlaceUnderCap } from "./capped-insert";
import { alertRules, places, users, workspaces } from "./schema";

/**
 * Issue 52, "one clock": a row's creation time is the clock the rules that compare against it read
 * (the Worker's, shifted in a run at a chosen hour), not D1's `unixepoch()`, which the column's SQL
 * default would give. Two days ahead is far past any skew between the two.
 */
describe("rows Drizzle inserts", () => {
  let ahead = 0;
  beforeEach(() => {
    ahead = Date.now() + 2 * 86_400_000;
    vi.useFakeTimers({ toFake: ["Date"], now: ahead });
  });
  afterEach(() => vi.useRealTimers());

  it("take their creation time from the Worker's clock, not D1's", async () => {
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

  it("and so do the inserts that carry a workspace's cap (a place, an alert rule)", async () => {
    const db = database(env.DB);
    const workspaceId = crypto.randomUUID();
    await db.insert(workspaces).values({ id: workspaceId, name: "Capped" });
    const [placeId, ruleId] = [crypto.randomUUID(), crypto.randomUUID()];
    const version = sql<number>`1`;
    await insertPlaceUnderCap(
      db,
      {
        id: placeId,
        workspaceId,
        name: "Depot",
        geometry: { type: "Circle", center: [0, 0], radius: 100 },
        version,
      },
      10,
    );
    await insertAlertRuleUnderCap(
      db,
      { id: ruleId, workspaceId, config: { kind: "speeding", thresholdKph: 100 } as never, version },
      10,
    );
    const [place] = await db.select({ createdAt: places.createdAt }).from(places).where(eq(places.id, placeId));
    const [rule] = await db
      .select({ createdAt: alertRules.createdAt })
      .from(alertRules)
      .where(eq(alertRules.id, ruleId));
    expect(place!.createdAt).toBeGreaterThanOrEqual(ahead);
    expect(rule!.createdAt).toBeGreaterThanOrEqual(ahead);
  });
});
