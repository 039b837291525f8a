import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mutationNames, type Mutators } from "../../shared/mutators";
import { actions, can, mutationActions, roles, type Role } from "../../shared/roles";
import { SCHEMA_VERSION } from "../../shared/sync-protocol";
import { database } from "../../db/client";
import { drivers, places, vehicles } from "../../db/schema";
import { commentRow, insertIssue, issueRow } from "../test/issues";
import { call, insertDriver, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { api } from "./index";
import { routeRules, ruleKey } from "./route-rules";

/**
 * The role × route × mutator table, generated from shared/roles.ts and the Hono app itself: a new
 * route without a rule, or a mutator without one, fails here (docs/decisions/0018-role-model.md).
 */
const registered = [...new Set(api.routes.filter((r) => r.method !== "ALL").map((r) => ruleKey(r.method, r.path)))];

describe("every API route has an access rule", () => {
  it("walks the app's routes: each has a rule, and each rule names a route", () => {
    expect(registered.length).toBeGreaterThan(30);
    expect(registered.filter((key) => !(key in routeRules))).toEqual([]);
    expect(Object.keys(routeRules).filter((key) => !registered.includes(key))).toEqual([]);
  });

  it("each rule is public, development, signed-in or an action of the shared table", () => {
    for (const rule of Object.values(routeRules)) {
      expect(["public", "development", "signed-in", ...actions]).toContain(rule);
    }
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

const workspaceRoutes = Object.entries(routeRules).filter(([, rule]) => (actions as readonly string[]).includes(rule));

describe.each(roles)("a %s", (role) => {
  it.each(workspaceRoutes)("%s: refused (403) exactly when the table says so", async (key, rule) => {
    const { workspaceId, people } = await team();
    const [method, pattern] = key.split(" ") as [string, string];
    const me = people[role];
    const res = await call(concrete(pattern, workspaceId, me.userId), { method, token: me.token, json: method === "GET" ? undefined : {} });
    const allowed = can(role, rule as (typeof actions)[number]);
    expect(res.status, `${role} ${key}`).toBeLessThan(500);
    if (allowed) expect(res.status, `${role} ${key}`).not.toBe(403);
    else expect(res.status, `${role} ${key}`).toBe(403);
  });

  it("another workspace's id is 404 on every workspace route, whatever the role there", async () => {
    const mine = await team();
    const theirs = await userWithWorkspace("other");
    for (const [key] of workspaceRoutes.filter(([key]) => key.includes("/workspaces/:id"))) {
      const [method, pattern] = key.split(" ") as [string, string];
      const me = mine.people[role];
      const res = await call(concrete(pattern, theirs.workspaceId, theirs.userId), { method, token: me.token, json: method === "GET" ? undefined : {} });
      expect(res.status, key).toBe(404);
    }
  });
});

/** A valid call of each mutator in `workspaceId`, and how to tell it took effect. Typed: every mutator needs one. */
const samples: Record<keyof Mutators, (workspaceId: string) => Promise<{ args: unknown; applied: () => Promise<boolean> }>> = {
  async updateVehicle(workspaceId) {
    const id = await insertVehicle(workspaceId, { name: "Before" });
    const name = `After ${crypto.randomUUID().slice(0, 4)}`;
    return {
      args: { id, name, vin: null, year: null, make: null, model: null },
      applied: async () => (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, id)).get())?.name === name,
    };
  },
  async createDriver() {
    const id = crypto.randomUUID();
    return {
      args: { id, name: "New driver", email: null, phone: null },
      applied: async () => (await database(env.DB).select().from(drivers).where(eq(drivers.id, id)).get()) !== undefined,
    };
  },
  async updateDriver(workspaceId) {
    const id = await insertDriver(workspaceId, "Before");
    return {
      args: { id, name: "After", email: "after@fleet.test", phone: null },
      applied: async () => (await database(env.DB).select().from(drivers).where(eq(drivers.id, id)).get())?.name === "After",
    };
  },
  async assignDriver(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const driverId = await insertDriver(workspaceId, "Assigned");
    return {
      args: { vehicleId, driverId },
      applied: async () => (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, vehicleId)).get())?.driverId === driverId,
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
    return { args: { id, vehicleId, title: "Cracked mirror", priority: "low" }, applied: async () => (await issueRow(id)) !== undefined };
  },
  async updateIssue(workspaceId) {
    const { id } = await insertIssue(workspaceId);
    return { args: { id, status: "in_progress" }, applied: async () => (await issueRow(id))?.status === "in_progress" };
  },
  async addIssueComment(workspaceId) {
    const { id: issueId } = await insertIssue(workspaceId);
    const id = crypto.randomUUID();
    return { args: { id, issueId, text: "Ordered the part" }, applied: async () => (await commentRow(id)) !== undefined };
  },
};

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
      json: { pushVersion: 1, clientGroupID: crypto.randomUUID(), profileID: "p", schemaVersion: SCHEMA_VERSION, mutations: [{ clientID, id: 1, name, args: sample.args, timestamp: 1 }] },
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { refused?: { id: number; name: string; message: string }[] };
    const allowed = can(role, mutationActions[name]);
    expect(await sample.applied()).toBe(allowed);
    if (allowed) expect(answer.refused).toBeUndefined();
    else expect(answer.refused).toEqual([{ clientID, id: 1, name, message: expect.stringMatching(/view-only|role/) }]);
  });
});
