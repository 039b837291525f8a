import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApp } from "../app";
import { database } from "../../db/client";
import { vehicles, workspaces } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";

const db = () => database(env.DB);
const profile = (token: string, list: unknown) =>
  call("/api/dev/vehicles/profile", { method: "POST", token, json: { vehicles: list } });

describe("development-only vehicle profile (demo seeding)", () => {
  it("sets driver and classification of the session's vehicles and bumps the workspace version", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const before = (await db().select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get())!.version;
    const res = await profile(a.token, [{ id, driver: "Maria Gonzalez", classification: "PICKUP_TRUCK" }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ updated: 1 });
    const row = (await db().select().from(vehicles).where(eq(vehicles.id, id)).get())!;
    expect(row).toMatchObject({ driver: "Maria Gonzalez", classification: "PICKUP_TRUCK" });
    expect(row.version).toBe(before + 1);
  });

  it("never touches another workspace's vehicles", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await insertVehicle(b.workspaceId, { driver: "Kept" });
    expect(await (await profile(a.token, [{ id: theirs, driver: "Intruder", classification: "SUV" }])).json()).toEqual({
      updated: 0,
    });
    expect((await db().select().from(vehicles).where(eq(vehicles.id, theirs)).get())!.driver).toBe("Kept");
  });

  it("refuses bad input with 400 and no session with 401", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const bad = await profile(a.token, [{ id, driver: "X", classification: "pickup truck" }]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
    expect((await profile(a.token, [])).status).toBe(400);
    expect(
      (
        await call("/api/dev/vehicles/profile", {
          method: "POST",
          json: { vehicles: [{ id, driver: null, classification: null }] },
        })
      ).status,
    ).toBe(401);
  });
});

it("does not exist in production", async () => {
  const a = await userWithWorkspace();
  const id = await insertVehicle(a.workspaceId);
  const production = {
    ...env,
    ENVIRONMENT: "production",
    APP_URL: "https://fleet.example.com",
    EMAIL_PROVIDER: "resend",
    EMAIL_API_KEY: "re_test_key",
    WEBHOOK_SECRET_KEY: "c2VhbGluZy1rZXktb2YtdGhpcy10ZXN0LTMyLWJ5dGU=",
    // Production refuses to start without push's keys (worker/env.ts, docs/decisions/0047).
    VAPID_PUBLIC_KEY: "BLxAkQbS-production-public-key",
    VAPID_PRIVATE_KEY: "production-private-key",
    VAPID_SUBJECT: "mailto:ops@fleet.example.com",
  };
  const app = createApp(async () => new Response("page", { status: 404 }));
  const res = await app.fetch(
    new Request("http://localhost/api/dev/vehicles/profile", {
      method: "POST",
      headers: { Authorization: `Bearer ${a.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ vehicles: [{ id, driver: "X", classification: "SUV" }] }),
    }),
    production,
    createExecutionContext(),
  );
  expect(res.status).toBe(404);
  expect((await db().select().from(vehicles).where(eq(vehicles.id, id)).get())!.driver).toBeNull();
});

describe("listing a workspace's beacons", () => {
  it("answers only the session workspace's beacons, and needs a session", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const order = async (token: string, workspaceId: string, count: number) =>
      (await (await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } })).json()) as {
        id: string;
        vehicleId: string;
      }[];
    const mine = await order(a.token, a.workspaceId, 2);
    await order(b.token, b.workspaceId, 3);
    const res = await call("/api/beacons", { token: a.token });
    expect(res.status).toBe(200);
    const listed = (await res.json()) as { id: string; vehicleId: string; lastReportAt: number | null }[];
    expect(listed.map((x) => x.id).sort()).toEqual(mine.map((x) => x.id).sort());
    expect(listed.every((x) => x.lastReportAt === null)).toBe(true);
    expect((await call("/api/beacons")).status).toBe(401);
  });
});
