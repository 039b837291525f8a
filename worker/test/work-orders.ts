import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { database } from "./db";
import { parts, vendors, workOrderLines, workOrders } from "../../db/schema";
import { insertVehicle } from "./factories";

/**
 * Work orders, lines, parts and vendors written straight to D1 for tests (issue 55), and a valid call
 * of each work order mutator with how to tell it took effect (worker/api/route-rules.worker.test.ts
 * runs every mutator for every role).
 */
const db = () => database(env.DB);

export async function insertWorkOrder(workspaceId: string, fields: Partial<typeof workOrders.$inferInsert> = {}) {
  const id = crypto.randomUUID();
  const vehicleId = fields.vehicleId ?? (await insertVehicle(workspaceId));
  await db()
    .insert(workOrders)
    .values({ id, workspaceId, vehicleId, number: Math.floor(Math.random() * 1e9), version: 0, ...fields });
  return id;
}

export async function insertLine(
  workspaceId: string,
  workOrderId: string,
  fields: Partial<typeof workOrderLines.$inferInsert> = {},
) {
  const id = crypto.randomUUID();
  await db()
    .insert(workOrderLines)
    .values({ id, workspaceId, workOrderId, kind: "labor", quantity: 1, unitCostCents: 5_000, version: 0, ...fields });
  return id;
}

export async function insertPart(workspaceId: string, fields: Partial<typeof parts.$inferInsert> = {}) {
  const id = crypto.randomUUID();
  await db()
    .insert(parts)
    .values({ id, workspaceId, name: "Filter", unitCostCents: 900, quantityOnHand: 10, version: 0, ...fields });
  return id;
}

export async function insertVendor(workspaceId: string) {
  const id = crypto.randomUUID();
  await db().insert(vendors).values({ id, workspaceId, name: "Shop", version: 0 });
  return id;
}

export const workOrderRow = (id: string) => db().select().from(workOrders).where(eq(workOrders.id, id)).get();
export const lineRow = (id: string) => db().select().from(workOrderLines).where(eq(workOrderLines.id, id)).get();
export const partRow = (id: string) => db().select().from(parts).where(eq(parts.id, id)).get();
export const vendorRow = (id: string) => db().select().from(vendors).where(eq(vendors.id, id)).get();

type Sample = (workspaceId: string) => Promise<{ args: unknown; applied: () => Promise<boolean> }>;

export const workOrderSamples = {
  async createWorkOrder(workspaceId) {
    const vehicleId = await insertVehicle(workspaceId);
    const id = crypto.randomUUID();
    return { args: { id, vehicleId, tasks: ["Check"] }, applied: async () => (await workOrderRow(id)) !== undefined };
  },
  async updateWorkOrder(workspaceId) {
    const id = await insertWorkOrder(workspaceId);
    return { args: { id, status: "on_hold" }, applied: async () => (await workOrderRow(id))?.status === "on_hold" };
  },
  async deleteWorkOrder(workspaceId) {
    const id = await insertWorkOrder(workspaceId);
    return { args: { id }, applied: async () => (await workOrderRow(id))?.deleted === true };
  },
  async addWorkOrderLine(workspaceId) {
    const workOrderId = await insertWorkOrder(workspaceId);
    const id = crypto.randomUUID();
    return {
      args: { id, workOrderId, kind: "labor", quantity: 2, unitCostCents: 8_000 },
      applied: async () => (await lineRow(id)) !== undefined,
    };
  },
  async updateWorkOrderLine(workspaceId) {
    const workOrderId = await insertWorkOrder(workspaceId);
    const id = await insertLine(workspaceId, workOrderId);
    return { args: { id, workOrderId, quantity: 3 }, applied: async () => (await lineRow(id))?.quantity === 3 };
  },
  async deleteWorkOrderLine(workspaceId) {
    const workOrderId = await insertWorkOrder(workspaceId);
    const id = await insertLine(workspaceId, workOrderId);
    return { args: { id, workOrderId }, applied: async () => (await lineRow(id))?.deleted === true };
  },
  async completeWorkOrder(workspaceId) {
    const id = await insertWorkOrder(workspaceId);
    await insertLine(workspaceId, id);
    return {
      args: { id, serviceEntryId: crypto.randomUUID() },
      applied: async () => (await workOrderRow(id))?.status === "completed",
    };
  },
  async reopenWorkOrder(workspaceId) {
    const id = await insertWorkOrder(workspaceId, { status: "completed", completedAt: Date.now() });
    return { args: { id }, applied: async () => (await workOrderRow(id))?.status === "in_progress" };
  },
  async createPart() {
    const id = crypto.randomUUID();
    return {
      args: { id, name: "Pads", unitCostCents: 4_500, quantityOnHand: 3 },
      applied: async () => (await partRow(id)) !== undefined,
    };
  },
  async updatePart(workspaceId) {
    const id = await insertPart(workspaceId);
    return { args: { id, quantityOnHand: 7 }, applied: async () => (await partRow(id))?.quantityOnHand === 7 };
  },
  async deletePart(workspaceId) {
    const id = await insertPart(workspaceId);
    return { args: { id }, applied: async () => (await partRow(id))?.deleted === true };
  },
  async createVendor() {
    const id = crypto.randomUUID();
    return { args: { id, name: "Tyres & Co" }, applied: async () => (await vendorRow(id)) !== undefined };
  },
  async updateVendor(workspaceId) {
    const id = await insertVendor(workspaceId);
    return { args: { id, phone: "555" }, applied: async () => (await vendorRow(id))?.phone === "555" };
  },
  async deleteVendor(workspaceId) {
    const id = await insertVendor(workspaceId);
    return { args: { id }, applied: async () => (await vendorRow(id))?.deleted === true };
  },
} satisfies Record<string, Sample>;
