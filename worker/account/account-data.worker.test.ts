import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { memberships, users, vehicles, workspaces } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { positionsIn } from "../test/positions";

/** ASVS V8.3.2 and V8.3.8: a person can take their data with them, and delete their account. */
const db = () => database(env.DB);
const PASSWORD = "correct horse battery";
const post = (path: string, json: unknown, token: string) => call(path, { method: "POST", json, token });
const emailOf = async (userId: string) => (await db().select().from(users).where(eq(users.id, userId)).get())!.email;

describe("Download my data", () => {
  it("has the account, its workspaces and sign-ins, and no secret", async () => {
    const address = `export-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = (
      (await (await call("/api/signup", { method: "POST", json: { email: address, password: PASSWORD } })).json()) as {
        token: string;
      }
    ).token;
    const res = await call("/api/account/export", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain("attachment");
    const text = await res.text();
    const data = JSON.parse(text) as {
      account: { email: string };
      signIn: { password: unknown };
      sessions: unknown[];
      memberships: unknown[];
    };
    expect(data.account.email).toBe(address);
    expect(data.signIn.password).toEqual({ changedAt: expect.any(Number) });
    expect(data.sessions).toHaveLength(1);
    expect(text).not.toContain("pbkdf2");
    expect(text).not.toContain(token);
  });
});

describe("account deletion", () => {
  it("deletes the account and the workspace it was alone in, vehicles included", async () => {
    const me = await userWithWorkspace("alone");
    const vehicleId = await insertVehicle(me.workspaceId);
    const plan = await (await call("/api/account/deletion", { token: me.token })).json();
    expect(plan).toEqual({
      blocking: [],
      deleted: [{ id: me.workspaceId, name: "Workspace alone" }],
      hasPassword: false,
      hasSecondFactor: false,
    });
    const res = await post("/api/account/delete", { email: await emailOf(me.userId) }, me.token);
    expect(res.status).toBe(200);
    expect(await db().select().from(users).where(eq(users.id, me.userId)).get()).toBeUndefined();
    expect(await db().select().from(workspaces).where(eq(workspaces.id, me.workspaceId)).get()).toBeUndefined();
    expect(await db().select().from(vehicles).where(eq(vehicles.id, vehicleId)).get()).toBeUndefined();
    expect((await call("/api/me", { token: me.token })).status).toBe(401);
  });

  it("deletes the workspace's positions too, in its object and in R2", async () => {
    const me = await userWithWorkspace("positions");
    const vehicleId = await insertVehicle(me.workspaceId);
    const room = positionsIn(me.workspaceId);
    const fix = (recordedAt: number) => ({
      vehicleId,
      beaconId: "b",
      recordedAt,
      latitude: 40,
      longitude: -100,
      speed: 3,
      heading: null,
      altitude: null,
      accuracy: null,
      battery: null,
      ignition: null,
      fuel: null,
      odometer: null,
      receivedAt: recordedAt,
    });
    const old = Date.now() - 3 * 86_400_000;
    await room.append([fix(old), fix(Date.now() - 60_000)]);
    await room.maintain(Date.now() + 61_000); // the old day goes to R2
    const prefix = `positions/${me.workspaceId}/`;
    expect((await env.POSITIONS.list({ prefix })).objects).toHaveLength(1);
    await room.append([fix(Date.now() - 30_000)]);
    expect((await room.read(vehicleId, 0, Date.now())).length).toBe(3);

    expect((await post("/api/account/delete", { email: await emailOf(me.userId) }, me.token)).status).toBe(200);
    expect((await env.POSITIONS.list({ prefix })).objects).toEqual([]);
    expect(await room.read(vehicleId, 0, Date.now())).toEqual([]);
  });

  it("is refused while the only owner of a workspace others use, and keeps the team's data once another owner is named", async () => {
    const me = await userWithWorkspace("shared");
    const vehicleId = await insertVehicle(me.workspaceId);
    const colleague = await memberWithRole(me.workspaceId, "member");
    const refused = await post("/api/account/delete", { email: await emailOf(me.userId) }, me.token);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Workspace shared");
    expect(await db().select().from(users).where(eq(users.id, me.userId)).get()).toBeDefined();

    await db().update(memberships).set({ role: "owner" }).where(eq(memberships.userId, colleague.userId));
    expect((await post("/api/account/delete", { email: await emailOf(me.userId) }, me.token)).status).toBe(200);
    expect(await db().select().from(vehicles).where(eq(vehicles.id, vehicleId)).get()).toBeDefined();
    expect(await db().select().from(memberships).where(eq(memberships.workspaceId, me.workspaceId)).all()).toHaveLength(
      1,
    );
    expect((await call("/api/me", { token: colleague.token })).status).toBe(200);
  });

  it("wants the e-mail typed again and the password", async () => {
    const address = `delete-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = (
      (await (await call("/api/signup", { method: "POST", json: { email: address, password: PASSWORD } })).json()) as {
        token: string;
      }
    ).token;
    const wrongEmail = await post("/api/account/delete", { email: "someone@example.com", password: PASSWORD }, token);
    expect(((await wrongEmail.json()) as { error: { fields: Record<string, string[]> } }).error.fields.email).toEqual([
      "Type your account's e-mail to confirm",
    ]);
    const wrongPassword = await post("/api/account/delete", { email: address, password: "not the password" }, token);
    expect(wrongPassword.status).toBe(400);
    expect((await call("/api/me", { token })).status).toBe(200);
    expect(
      (await post("/api/account/delete", { email: address.toUpperCase(), password: PASSWORD }, token)).status,
    ).toBe(200);
    expect((await call("/api/me", { token })).status).toBe(401);
  });
});
