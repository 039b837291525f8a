import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { drivers, vehicles, workspaces } from "../../db/schema";
import { insertVehicle, userWithWorkspace } from "../test/factories";

/**
 * Migration 0006's data step, run again on rows shaped like those before it: the free-text driver
 * names become drivers (one per name per workspace) assigned to their vehicles, stamped so clients pull them.
 */
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] };
const conversion = TEST_MIGRATIONS.find((m) => m.name.startsWith("0006"))!.queries.filter((q) =>
  /driver_id` = |INSERT INTO `drivers`|SET `version` = `version` \+ 1/.test(q),
);

describe("migration 0006: free-text drivers become people", () => {
  it("creates one driver per name per workspace, assigns it, and bumps the version so pulls send both", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const db = database(env.DB);
    const one = await insertVehicle(a.workspaceId, { driver: "Maria Gonzalez" });
    const two = await insertVehicle(a.workspaceId, { driver: "Maria Gonzalez" });
    const none = await insertVehicle(a.workspaceId, { driver: null });
    const other = await insertVehicle(b.workspaceId, { driver: "Maria Gonzalez" });
    const before = (await db.select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get())!.version;

    expect(conversion).toHaveLength(3);
    for (const query of conversion) await env.DB.prepare(query).run();

    const mine = await db.select().from(drivers).where(eq(drivers.workspaceId, a.workspaceId)).all();
    expect(mine.map((d) => d.name)).toEqual(["Maria Gonzalez"]);
    const after = (await db.select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get())!.version;
    expect(after).toBe(before + 1);
    expect(mine[0]!.version).toBe(after);
    const row = async (id: string) => (await db.select().from(vehicles).where(eq(vehicles.id, id)).get())!;
    expect((await row(one)).driverId).toBe(mine[0]!.id);
    expect((await row(two)).driverId).toBe(mine[0]!.id);
    expect((await row(one)).version).toBe(after);
    expect((await row(none)).driverId).toBeNull();
    // The other workspace's Maria is its own person.
    const theirs = await db.select().from(drivers).where(eq(drivers.workspaceId, b.workspaceId)).all();
    expect(theirs).toHaveLength(1);
    expect((await row(other)).driverId).toBe(theirs[0]!.id);
  });
});
