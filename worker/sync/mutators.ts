import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assignDriverArgs, driverArgs } from "../../shared/fleet/driver";
import { updateVehicleArgs, type Mutators } from "../../shared/sync/mutators";
import { vehicleTable } from "../../shared/fleet/vehicle-fields";
import type { Db } from "../../db/client";
import { drivers, vehicles } from "../../db/schema";
import { placeServerMutators } from "./places-mutators";
import { issueServerMutators, type MutationCaller } from "./issue-mutators";
import { serviceServerMutators } from "./service-mutators";
import { inspectionServerMutators } from "./inspection-mutators";
import { fuelServerMutators } from "./fuel-mutators";
import { expenseServerMutators } from "./expense-mutators";
import { renewalServerMutators } from "./renewal-mutators";
import { jobServerMutators } from "./jobs-mutators";
import { workOrderServerMutators } from "./work-order-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";

/** Raised for a mutation the server refuses; push records it as processed and moves on. */
export class MutationRejected extends Error {}

/**
 * The authoritative side of each mutation in shared/sync/mutators.ts: reads what it needs, checks that
 * everything it touches is in the session's workspace, and returns the writes (stamped with the
 * workspace version) for push to commit in one batch.
 */
type ServerMutator = (
  db: Db,
  workspaceId: string,
  args: unknown,
  caller: MutationCaller,
) => Promise<BatchItem<"sqlite">[]>;

const reject = (message: string): never => {
  throw new MutationRejected(message);
};
const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, reject);

/** The workspace's live driver with this id, or null. */
async function driverIn(db: Db, workspaceId: string, id: string) {
  return (
    (await db
      .select({ id: drivers.id, name: drivers.name })
      .from(drivers)
      .where(and(eq(drivers.id, id), eq(drivers.workspaceId, workspaceId), eq(drivers.deleted, false)))
      .get()) ?? null
  );
}

async function liveVehicle(db: Db, workspaceId: string, id: string) {
  return db
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(and(eq(vehicles.id, id), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
    .get();
}

export const serverMutators: Record<keyof Mutators, ServerMutator> = {
  async updateVehicle(db, workspaceId, input, caller) {
    const { id, fuelTankLitres, ...fields } = parse(updateVehicleArgs, input);
    const vehicle = await liveVehicle(db, workspaceId, id);
    if (!vehicle) throw new MutationRejected("no such vehicle in this workspace");
    return [
      caller.live
        .update(vehicles)
        // the table's fields (shared/fleet/vehicle-fields.ts); an absent tank is left out of the SET
        .set({ ...vehicleTable.named(fields), fuelTankLitres, version: caller.stamp })
        .where(and(eq(vehicles.id, id), eq(vehicles.workspaceId, workspaceId))),
    ];
  },

  async createDriver(db, workspaceId, input, caller) {
    const { id, ...fields } = parse(driverArgs, input);
    // An id taken (by this workspace's replayed create, or anyone else's): nothing to do.
    const taken = await db.select({ id: drivers.id }).from(drivers).where(eq(drivers.id, id)).get();
    if (taken) throw new MutationRejected("a driver with this id exists");
    return [db.insert(drivers).values({ id, workspaceId, ...fields, version: caller.stamp })];
  },

  async updateDriver(db, workspaceId, input, caller) {
    const { id, ...fields } = parse(driverArgs, input);
    if (!(await driverIn(db, workspaceId, id))) throw new MutationRejected("no such driver in this workspace");
    return [
      db
        .update(drivers)
        .set({ ...fields, version: caller.stamp })
        .where(and(eq(drivers.id, id), eq(drivers.workspaceId, workspaceId))),
      // The vehicles' free-text name follows (what older tabs show).
      caller.live
        .update(vehicles)
        .set({ driver: fields.name, version: caller.stamp })
        .where(and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.driverId, id))),
    ];
  },

  async assignDriver(db, workspaceId, input, caller) {
    const { vehicleId, driverId } = parse(assignDriverArgs, input);
    if (!(await liveVehicle(db, workspaceId, vehicleId)))
      throw new MutationRejected("no such vehicle in this workspace");
    const driver = driverId ? await driverIn(db, workspaceId, driverId) : null;
    if (driverId && !driver) throw new MutationRejected("no such driver in this workspace");
    return [
      caller.live
        .update(vehicles)
        .set({ driverId, driver: driver?.name ?? null, version: caller.stamp })
        .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId))),
    ];
  },
  ...placeServerMutators(reject),
  ...issueServerMutators(reject),
  ...serviceServerMutators(reject),
  ...inspectionServerMutators(reject),
  ...fuelServerMutators(reject),
  ...expenseServerMutators(reject),
  ...renewalServerMutators(reject),
  ...jobServerMutators(reject),
  ...workOrderServerMutators(reject),
};
