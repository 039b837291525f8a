import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { mutationNames, type Mutators } from "../../shared/sync/mutators";
import { actions, can, mutationActions, roles, type Role } from "../../shared/account/roles";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { database } from "../test/db";
import {
  drivers,
  expenses,
  fuelEntries,
  inspections,
  jobs,
  places,
  renewals,
  serviceEntries,
  serviceSchedules,
  vehicles,
} from "../../db/schema";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/maintenance/inspections";
import { commentRow, insertIssue, issueRow } from "../test/issues";
import { call, insertDriver, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import type { AppEnv } from "../types";
import { api } from "./index";
import { declared } from "./route-declaration/declare";
import { declaredRoutes } from "./route-declaration/declared-routes";
import { enforceRouteRules } from "./route-rules";
import { workOrderSamples } from "../test/work-orders";

/**
 * The role × route × mutator table, generated from shared/account/roles.ts and the Hono app itself: a new
 * route without a declaration, or a mutator without a rule, fails here (docs/decisions/0018-role-model.md,
 * 0056-route-declarations.md).
 */
const declarations = declaredRoutes(api);
/** The role table the authorisation middleware enforces, as the routes' declarations give it. */
const routeRules = Object.fromEntries([...declarations].map(([key, declaration]) => [key, declaration?.permission]));

describe("every API route is declared", () => {
  it("walks the app's routes: each has a declaration with its permission", () => {
    expect(declarations.size).toBeGreaterThan(100);
    expect([...declarations].filter(([, declaration]) => !declaration).map(([key]) => key)).toEqual([]);
  });

  it("each permission is public, development, signed-in or an action of the shared table", () => {
    for (const rule of Object.values(routeRules)) {
      expect(["public", "development", "signed-in", ...actions]).toContain(rule);
    }
  });

  it("a route registered without a declaration is listed as such, and refused (403) if called", async () => {
    const app = new Hono<AppEnv>()
      .use("*", enforceRouteRules)
      .get("/declared", declared({ permission: "public", summary: "Declared", tag: "Test" }), (c) =>
        c.json({ ok: true }),
      )
      .get("/forgotten", (c) => c.json({ ok: true }));
    app.onError((err, c) => c.json({ status: (err as { status?: number }).status }, 500));
    expect([...declaredRoutes(app)].map(([key, d]) => [key, d?.permission])).toEqual([
      ["GET /declared", "public"],
      ["GET /forgotten", undefined],
    ]);
    expect((await app.request("/declared")).status).toBe(200);
    expect(await (await app.request("/forgotten")).json()).toEqual({ status: 403 });
  });
});

/** One workspace with one user of each role. */
async function team() {
  const owner = await userWithWorkspace("owner");
  const people: Record<Role, { userId: string; token: string }> = {
    owner,
    admin: await memberWithRole(owner.workspaceId, "admin"),
    member: await memberWithRole(owner.workspaceId, "member"),
    viewer: await memberWithRole(owner.workspaceId, "viewer"),
  };
  return { workspaceId: owner.workspaceId, people };
}

/** A concrete path for a route pattern: the workspace, the caller (leave) or an unknown id. */
const concrete = (pattern: string, workspaceId: string, userId: string) =>
  `/api${pattern.replace(":id", workspaceId).replace(":userId", userId).replace(/:\w+/g, crypto.randomUUID())}`;

const workspaceRoutes = Object.entries(routeRules).filter(([, rule]) => (actions as readonly unknown[]).includes(rule));

/**
 * What each workspace route answers a caller its role lets through, for the probe below (an empty
 * body, unknown ids, a fresh workspace): the route's own answer, so a role check that wrongly
 * refuses in some other way (a 404 for "not yours", a 400) fails too. One entry per route.
 */
const answerWhenAllowed: Record<string, number> = {
  "POST /sync/pull": 400,
  "POST /sync/push": 400,
  "POST /beacons/order": 400,
  "GET /beacons": 200,
  "GET /beacons/:vehicleId/health": 404,
  "POST /beacons/:vehicleId/device-id": 404,
  "GET /beacons/:vehicleId/setup": 404,
  "POST /beacons/device-ids/replace": 400,
  "GET /vehicles/:vehicleId": 404,
  "GET /vehicles/:vehicleId/history": 404,
  "POST /vehicles/:vehicleId/shares": 400,
  "GET /vehicles/:vehicleId/shares": 404,
  "DELETE /shares/:id": 404,
  "POST /jobs/:id/shares": 404,
  "DELETE /jobs/:id/shares/:shareId": 404,
  "GET /workspaces/:id/members": 200,
  "POST /workspaces/:id/invites": 400,
  "DELETE /workspaces/:id/invites/:inviteId": 404,
  "POST /workspaces/:id/invites/:inviteId/resend": 404,
  "PATCH /workspaces/:id/members/:userId": 400,
  "GET /workspaces/:id/api-tokens": 200,
  "POST /workspaces/:id/api-tokens": 400,
  "DELETE /workspaces/:id/api-tokens/:tokenId": 404,
  "GET /workspaces/:id/shares": 200,
  "DELETE /workspaces/:id/members/:userId": 200,
  "GET /reports/subscription": 200,
  "PUT /reports/subscription": 400,
  "GET /reports/costs": 400,
  "GET /reports/:report": 404,
  "GET /workspace/preferences": 200,
  "PATCH /workspace/preferences": 400,
  "GET /workspace/sms": 200,
  "PUT /workspace/sms": 400,
  "DELETE /workspace/sms": 200,
  "POST /workspace/sms/test": 400,
  "GET /places": 200,
  "POST /places": 400,
  "PATCH /places/:id": 404,
  "DELETE /places/:id": 404,
  "GET /alert-rules": 200,
  "POST /alert-rules": 400,
  "PATCH /alert-rules/:id": 400,
  "DELETE /alert-rules/:id": 404,
  "GET /alerts": 200,
  "POST /alerts/read": 400,
  "GET /webhook-secret": 200,
  "POST /webhook-secret/rotate": 200,
  "GET /alert-deliveries": 200,
  "GET /service-schedules": 200,
  "POST /service-schedules": 400,
  "PATCH /service-schedules/:id": 404,
  "DELETE /service-schedules/:id": 404,
  "GET /service-entries": 200,
  "POST /service-entries": 400,
  "DELETE /service-entries/:id": 404,
  "GET /inspection-forms": 200,
  "POST /inspection-forms": 400,
  "PATCH /inspection-forms/:id": 404,
  "GET /inspections": 200,
  "POST /inspections": 400,
  "GET /my-actions": 200,
  "POST /photos": 415,
  "GET /photos/usage": 200,
  "GET /photos/:id": 404,
  "GET /issues": 200,
  "GET /issues/:id": 404,
  "POST /issues": 400,
  "PATCH /issues/:id": 404,
  "POST /issues/:id/comments": 400,
  "PATCH /vehicles/:vehicleId": 404,
  "GET /fuel-entries": 200,
  "POST /fuel-entries": 400,
  "PATCH /fuel-entries/:id": 404,
  "DELETE /fuel-entries/:id": 404,
  "GET /jobs": 200,
  "POST /jobs": 400,
  // the probe sends JSON: the import takes text/csv only
  "POST /jobs/import": 415,
  "GET /jobs/:id": 404,
  "PATCH /jobs/:id": 404,
  "DELETE /jobs/:id": 404,
  "POST /jobs/:id/complete": 404,
  "GET /routes": 400,
  "POST /routes/plan": 400,
  "POST /routes/plan/apply": 400,
  "GET /vehicles/:vehicleId/fuel-economy": 404,
  "GET /vehicles/:vehicleId/events": 404,
  "GET /expenses": 200,
  "POST /expenses": 400,
  "PATCH /expenses/:id": 404,
  "DELETE /expenses/:id": 404,
  "GET /renewals": 200,
  "POST /renewals": 400,
  "POST /renewals/:id/renew": 400,
  "DELETE /renewals/:id": 404,
  "GET /work-orders": 200,
  "POST /work-orders": 400,
  "GET /work-orders/:id": 404,
  "PATCH /work-orders/:id": 404,
  "DELETE /work-orders/:id": 404,
  "POST /work-orders/:id/lines": 400,
  "PATCH /work-orders/:id/lines/:lineId": 404,
  "DELETE /work-orders/:id/lines/:lineId": 404,
  "POST /work-orders/:id/complete": 404,
  "POST /work-orders/:id/reopen": 404,
  "GET /parts": 200,
  "POST /parts": 400,
  "PATCH /parts/:id": 404,
  "DELETE /parts/:id": 404,
  "GET /vendors": 200,
  "POST /vendors": 400,
  "PATCH /vendors/:id": 404,
  "DELETE /vendors/:id": 404,
  "POST /push-subscriptions": 400,
  "DELETE /push-subscriptions": 400,
};
/** The one answer that depends on who asks: the only owner may not leave (409), anyone else may. */
const ownerLeaving = "DELETE /workspaces/:id/members/:userId";

describe.each(roles)("a %s", (role) => {
  it.each(workspaceRoutes)(
    "%s: refused (403) exactly when the table says so, else answered as the route answers",
    async (key, rule) => {
      const { workspaceId, people } = await team();
      const [method, pattern] = key.split(" ") as [string, string];
      const me = people[role];
      const res = await call(concrete(pattern, workspaceId, me.userId), {
        method,
        token: me.token,
        json: method === "GET" ? undefined : {},
      });
      const allowed = can(role, rule as (typeof actions)[number]);
      const expected = !allowed ? 403 : key === ownerLeaving && role === "owner" ? 409 : answerWhenAllowed[key];
      expect(expected, `${key} needs its answer in answerWhenAllowed`).toBeDefined();
      expect(res.status, `${role} ${key}`).toBe(expected);
    },
  );

  it("another workspace's id is 404 on every workspace route, whatever the role there", async () => {
    const mine = await team();
    const theirs = await userWithWorkspace("other");
    for (const [key] of workspaceRoutes.filter(([key]) => key.includes("/workspaces/:id"))) {
      const [method, pattern] = key.split(" ") as [string, string];
      const me = mine.people[role];
      const res = await call(concrete(pattern, theirs.workspaceId, theirs.userId), {
        method,
        token: me.token,
        json: method === "GET" ? undefined : {},
      });
      expect(res.status, key).toBe(404);
    }
  });
});

/** A valid call of each mutator in `workspaceId`, and how to tell it took effect. Typed: every mutator needs one. */
const samples: Record<
  keyof Mutators,
  (workspaceId: string) => Promise<{ args: unknown; applied: () => Promise<boolean> }>
> = {
  async updateVehicle(workspaceId) {
    const id = await insertVehicle(workspaceId, { name: "Before" });
    const name = `After ${crypto.randomUUID().slice(0, 4)}`;
    return {
      args: { id, name, vin: null, year: null, make: null, model: null },
      applied: async () =>
        (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, id)).get())?.name === name,
    };
  },
  async createDriver() {
    const id = crypto.randomUUID();
    return {
      args: { id, name: "New driver", email: null, phone: null },
      applied: async () =>
        (await database(env.DB).select().from(drivers).where(eq(drivers.id, id)).get()) !== undefined,
    };
  },
  async updateDriver(workspaceId) {
    const id = await insertDriver(workspaceId, "Before");
    return {
      args: { id, name: "After", email: "after@fleet.test", phone: null },
      applied: async () =>
        (await database(env.DB).select().from(drivers).where(eq(drivers.id, id)).get())?.name === "After",
    };
  },
  async assignDriver(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const driverId = await insertDriver(workspaceId, "Assigned");
    return {
      args: { vehicleId, driverId },
      applied: async () =>
        (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, vehicleId)).get())?.driverId === driverId,
    };
  },
  async createPlace() {
    const id = crypto.randomUUID();
    return {
      args: { id, name: "Depot", geometry: depot },
      applied: async () => (await placeRow(id)) !== undefined,
    };
  },
  async updatePlace(workspaceId) {
    const id = await insertPlace(workspaceId, "Before");
    return { args: { id, name: "After" }, applied: async () => (await placeRow(id))?.name === "After" };
  },
  async deletePlace(workspaceId) {
    const id = await insertPlace(workspaceId, "Doomed");
    return { args: { id }, applied: async () => (await placeRow(id))?.deleted === true };
  },
  async createIssue(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, vehicleId, title: "Cracked mirror", priority: "low" },
      applied: async () => (await issueRow(id)) !== undefined,
    };
  },
  async updateIssue(workspaceId) {
    const { id } = await insertIssue(workspaceId);
    return { args: { id, status: "in_progress" }, applied: async () => (await issueRow(id))?.status === "in_progress" };
  },
  async addIssueComment(workspaceId) {
    const { id: issueId } = await insertIssue(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, issueId, text: "Ordered the part" },
      applied: async () => (await commentRow(id)) !== undefined,
    };
  },
  async logServiceEntry(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, vehicleId, date: "2026-01-15", description: "Oil and filter" },
      applied: async () =>
        (await database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.id, id)).get()) !== undefined,
    };
  },
  async createServiceSchedule(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, vehicleId, name: "Oil change", everyDays: 180 },
      applied: async () =>
        (await database(env.DB).select().from(serviceSchedules).where(eq(serviceSchedules.id, id)).get()) !== undefined,
    };
  },
  async updateServiceSchedule(workspaceId) {
    const id = await insertScheduleOf(workspaceId);
    return { args: { id, everyDays: 90 }, applied: async () => (await scheduleRow(id))?.everyDays === 90 };
  },
  async deleteServiceSchedule(workspaceId) {
    const id = await insertScheduleOf(workspaceId);
    return { args: { id }, applied: async () => (await scheduleRow(id))?.deleted === true };
  },
  async deleteServiceEntry(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    await database(env.DB)
      .insert(serviceEntries)
      .values({ id, workspaceId, vehicleId, date: "2026-01-15", createdAt: Date.now(), version: 0 });
    return {
      args: { id },
      applied: async () =>
        (await database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.id, id)).get())?.deleted === true,
    };
  },
  async submitInspection(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    const results = DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true }));
    return {
      args: { id, vehicleId, formId: defaultFormId(workspaceId), results, signedName: "Robin Driver" },
      applied: async () =>
        (await database(env.DB).select().from(inspections).where(eq(inspections.id, id)).get()) !== undefined,
    };
  },
  async logFuelEntry(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, vehicleId, at: new Date().toISOString(), volumeLitres: 40, fullTank: true },
      applied: async () => (await fuelRow(id)) !== undefined,
    };
  },
  async updateFuelEntry(workspaceId) {
    const id = await insertFuelEntryOf(workspaceId);
    return { args: { id, volumeLitres: 41 }, applied: async () => (await fuelRow(id))?.volumeLitres === 41 };
  },
  async deleteFuelEntry(workspaceId) {
    const id = await insertFuelEntryOf(workspaceId);
    return { args: { id }, applied: async () => (await fuelRow(id))?.deleted === true };
  },
  async addExpense(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, vehicleId, date: "2026-11-02", kind: "tolls", costCents: 450 },
      applied: async () => (await expenseRow(id)) !== undefined,
    };
  },
  async updateExpense(workspaceId) {
    const id = await insertExpenseOf(workspaceId);
    return { args: { id, costCents: 999 }, applied: async () => (await expenseRow(id))?.costCents === 999 };
  },
  async deleteExpense(workspaceId) {
    const id = await insertExpenseOf(workspaceId);
    return { args: { id }, applied: async () => (await expenseRow(id))?.deleted === true };
  },
  async addRenewal(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, vehicleId, kind: "insurance", dueDate: "2027-03-01" },
      applied: async () => (await renewalRow(id)) !== undefined,
    };
  },
  async renewRenewal(workspaceId) {
    const id = await insertRenewalOf(workspaceId);
    return {
      args: { id, dueDate: "2028-01-31" },
      applied: async () => (await renewalRow(id))?.dueDate === "2028-01-31",
    };
  },
  async deleteRenewal(workspaceId) {
    const id = await insertRenewalOf(workspaceId);
    return { args: { id }, applied: async () => (await renewalRow(id))?.deleted === true };
  },
  async createJob(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, title: "Deliver", date: "2026-11-28", vehicleId, location: { latitude: 41.88, longitude: -87.63 } },
      applied: async () => (await jobRow(id)) !== undefined,
    };
  },
  async updateJob(workspaceId) {
    const id = await insertJobOf(workspaceId);
    return { args: { id, title: "Renamed" }, applied: async () => (await jobRow(id))?.title === "Renamed" };
  },
  async deleteJob(workspaceId) {
    const id = await insertJobOf(workspaceId);
    return { args: { id }, applied: async () => (await jobRow(id))?.deleted === true };
  },
  async reorderJobs(workspaceId) {
    const [a, b] = [await insertJobOf(workspaceId), await insertJobOf(workspaceId)];
    return {
      args: { vehicleId: null, date: "2026-11-28", jobIds: [b, a] },
      applied: async () => (await jobRow(a))?.sequence === 1,
    };
  },
  async markJobArrived(workspaceId) {
    const id = await insertJobOf(workspaceId);
    return { args: { id, at: Date.now() }, applied: async () => (await jobRow(id))?.status === "arrived" };
  },
  async completeJob(workspaceId) {
    const id = await insertJobOf(workspaceId);
    return {
      args: { id, at: Date.now(), recipientName: "Ann" },
      applied: async () => (await jobRow(id))?.status === "completed",
    };
  },
  async cancelJob(workspaceId) {
    const id = await insertJobOf(workspaceId);
    return { args: { id }, applied: async () => (await jobRow(id))?.status === "cancelled" };
  },
  ...workOrderSamples,
};

const renewalRow = (id: string) => database(env.DB).select().from(renewals).where(eq(renewals.id, id)).get();
async function insertRenewalOf(workspaceId: string) {
  const vehicleId = await insertVehicle(workspaceId);
  const id = crypto.randomUUID();
  await database(env.DB)
    .insert(renewals)
    .values({ id, workspaceId, vehicleId, kind: "registration", dueDate: "2027-01-31", version: 0 });
  return id;
}

const expenseRow = (id: string) => database(env.DB).select().from(expenses).where(eq(expenses.id, id)).get();
async function insertExpenseOf(workspaceId: string) {
  const vehicleId = await insertVehicle(workspaceId);
  const id = crypto.randomUUID();
  await database(env.DB)
    .insert(expenses)
    .values({ id, workspaceId, vehicleId, date: "2026-11-01", kind: "parking", costCents: 300, version: 0 });
  return id;
}

const jobRow = (id: string) => database(env.DB).select().from(jobs).where(eq(jobs.id, id)).get();
async function insertJobOf(workspaceId: string) {
  const id = crypto.randomUUID();
  const number = Math.floor(Math.random() * 1e9);
  await database(env.DB).insert(jobs).values({
    id,
    workspaceId,
    number,
    title: "Stop",
    date: "2026-11-28",
    latitude: 41.88,
    longitude: -87.63,
    version: 0,
  });
  return id;
}

const fuelRow = (id: string) => database(env.DB).select().from(fuelEntries).where(eq(fuelEntries.id, id)).get();
async function insertFuelEntryOf(workspaceId: string) {
  const vehicleId = await insertVehicle(workspaceId);
  const id = crypto.randomUUID();
  await database(env.DB)
    .insert(fuelEntries)
    .values({ id, workspaceId, vehicleId, at: Date.now(), volumeLitres: 40, version: 0 });
  return id;
}

const scheduleRow = (id: string) =>
  database(env.DB).select().from(serviceSchedules).where(eq(serviceSchedules.id, id)).get();
async function insertScheduleOf(workspaceId: string) {
  const vehicleId = await insertVehicle(workspaceId);
  const id = crypto.randomUUID();
  await database(env.DB)
    .insert(serviceSchedules)
    .values({ id, workspaceId, vehicleId, name: "Oil change", everyDays: 180, lastDoneAt: Date.now(), version: 0 });
  return id;
}

const depot = { type: "Circle" as const, center: [-87.63, 41.88] as [number, number], radius: 150 };
const placeRow = (id: string) => database(env.DB).select().from(places).where(eq(places.id, id)).get();
async function insertPlace(workspaceId: string, name: string) {
  const id = crypto.randomUUID();
  await database(env.DB).insert(places).values({ id, workspaceId, name, geometry: depot, version: 0 });
  return id;
}

describe.each(roles)("a %s pushing", (role) => {
  it.each(mutationNames)("%s: applied exactly when the table allows it, else refused by name", async (name) => {
    const { workspaceId, people } = await team();
    const sample = await samples[name](workspaceId);
    const clientID = crypto.randomUUID();
    const res = await call("/api/sync/push", {
      method: "POST",
      token: people[role].token,
      json: {
        pushVersion: 1,
        clientGroupID: crypto.randomUUID(),
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [{ clientID, id: 1, name, args: sample.args, timestamp: 1 }],
      },
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { refused?: { id: number; name: string; message: string }[] };
    const allowed = can(role, mutationActions[name]);
    expect(await sample.applied()).toBe(allowed);
    if (allowed) expect(answer.refused).toBeUndefined();
    else expect(answer.refused).toEqual([{ clientID, id: 1, name, message: expect.stringMatching(/view-only|role/) }]);
  });
});
