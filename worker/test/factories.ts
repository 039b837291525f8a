import { env, exports } from "cloudflare:workers";
import { createSession } from "../auth/session";
import { database } from "./db";
import type { Report } from "../../domain/devices/osmand";
import { drivers, memberships, telemetry, users, vehicles, workspaces } from "../../db/schema";
import { METRES_PER_MILE } from "../../shared/units/units";
import { bumpVersion, versionOf } from "./db";

/**
 * Test data straight into D1, for Worker tests that are not about sign-up itself: a user, a
 * workspace they belong to, and a bearer token whose session names that workspace.
 */
export async function userWithWorkspace(label = crypto.randomUUID().slice(0, 8)) {
  const db = database(env.DB);
  const userId = crypto.randomUUID();
  const workspaceId = crypto.randomUUID();
  const email = `${label}-${userId.slice(0, 6)}@example.com`;
  // Confirmed, as every account made before issue 39 is (migrations/0022): tests of unconfirmed ones say so.
  await db.insert(users).values({ id: userId, email, emailConfirmedAt: Date.now() });
  await db.insert(workspaces).values({ id: workspaceId, name: `Workspace ${label}` });
  await db.insert(memberships).values({ workspaceId, userId, role: "owner" });
  const token = await createSession(db, userId, workspaceId);
  return { db, userId, workspaceId, token, email };
}

/** userWithWorkspace with one beacon ordered through the API (its vehicle made with it). */
export async function workspaceWithBeacon() {
  const a = await userWithWorkspace();
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  const [beacon] = (await res.json()) as { id: string; vehicleId: string }[];
  return { ...a, beacon: beacon! };
}

/** userWithWorkspace with `count` beacons ordered through the API (each with its vehicle). */
export async function workspaceWithBeacons(count: number) {
  const a = await userWithWorkspace();
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count },
  });
  if (res.status !== 201) throw new Error(`beacon order: ${res.status} ${await res.text()}`);
  return { ...a, beacons: (await res.json()) as { id: string; vehicleId: string }[] };
}

/** Calls the Worker under test like a client would. */
export function call(path: string, init: RequestInit & { token?: string; json?: unknown } = {}) {
  const { token, json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  const worker = (exports as unknown as { default: Fetcher }).default;
  return worker.fetch(`http://localhost${path}`, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
}

/** A vehicle written the way every workspace write is: version bumped and stamped in one batch. */
export async function insertVehicle(workspaceId: string, fields: Partial<typeof vehicles.$inferInsert> = {}) {
  const db = database(env.DB);
  const id = fields.id ?? crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(vehicles).values({ name: "Truck", ...fields, id, workspaceId, version: versionOf(workspaceId) }),
  ]);
  return id;
}

/** A parsed beacon report with every optional field empty, at `time`; `fields` override. */
export const report = (deviceId: string, time: number, fields: Partial<Report> = {}): Report => ({
  deviceId,
  time,
  latitude: 40,
  longitude: -100,
  speed: null,
  heading: null,
  altitude: null,
  accuracy: null,
  battery: null,
  ignition: null,
  fuel: null,
  odometer: null,
  ...fields,
});

/** Another user in `workspaceId` with `role`, and a token whose session names that workspace. */
export async function memberWithRole(workspaceId: string, role: string, label = crypto.randomUUID().slice(0, 8)) {
  const db = database(env.DB);
  const userId = crypto.randomUUID();
  const email = `${label}-${userId.slice(0, 6)}@example.com`;
  await db.insert(users).values({ id: userId, email, emailConfirmedAt: Date.now() });
  await db.insert(memberships).values({ workspaceId, userId, role });
  const token = await createSession(db, userId, workspaceId);
  return { userId, email, token };
}

/** A driver written like every workspace write: version bumped and stamped in one batch. */
export async function insertDriver(workspaceId: string, name: string) {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(drivers).values({ id, workspaceId, name, version: versionOf(workspaceId) }),
  ]);
  return id;
}

/** A vehicle whose odometer (as the workspace's object flushed it) reads `miles`, and engine hours `hours`. */
export async function vehicleWithOdometer(workspaceId: string, miles: number, hours: number | null = null) {
  const vehicleId = await insertVehicle(workspaceId, { engineSeconds: hours === null ? null : hours * 3600 });
  await database(env.DB)
    .insert(telemetry)
    .values({
      id: vehicleId,
      workspaceId,
      vehicleId,
      status: "off",
      statusTimestamp: 0,
      latitude: 41.88,
      longitude: -87.63,
      odometer: miles * METRES_PER_MILE,
      recordedAt: Date.now(),
      version: 0,
    });
  return vehicleId;
}
