import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { flushRows } from "../party/live-fleet/flush-tables";
import { userWithWorkspace } from "../worker/test/factories";
import { database } from "../worker/test/db";
import { alerts } from "./schema";

/** Issue 34, finding 9: an alert id that collides across workspaces never moves or rewrites the other's row. */
describe("upserts of synced rows", () => {
  it("never rewrite a row's workspace_id, and a colliding key from another workspace changes nothing", async () => {
    const db = database(env.DB);
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const id = `collide-${crypto.randomUUID()}`;
    const row = (workspaceId: string, latitude: number) => ({
      table: "alerts",
      row: {
        id,
        workspaceId,
        ruleId: "r",
        vehicleId: "v",
        type: "tow",
        at: Date.parse("2026-11-20T10:00:00Z"),
        latitude,
        longitude: -87,
      },
    });
    await db.batch(flushRows(db, [row(a.workspaceId, 41)]) as never);
    await db.batch(flushRows(db, [row(b.workspaceId, 12)]) as never);
    const stored = await db.select().from(alerts).where(eq(alerts.id, id)).get();
    expect(stored).toMatchObject({ workspaceId: a.workspaceId, latitude: 41 });
    // its own workspace still updates it
    await db.batch(flushRows(db, [row(a.workspaceId, 42)]) as never);
    expect((await db.select().from(alerts).where(eq(alerts.id, id)).get())!.latitude).toBe(42);
  });
});
