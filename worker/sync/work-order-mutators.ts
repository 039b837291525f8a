import type { BatchItem } from "drizzle-orm/batch";
import {
  addWorkOrderLineArgs,
  completeWorkOrderArgs,
  createPartArgs,
  createVendorArgs,
  createWorkOrderArgs,
  deleteWorkOrderLineArgs,
  updatePartArgs,
  updateVendorArgs,
  updateWorkOrderArgs,
  updateWorkOrderLineArgs,
  workOrderIdArgs,
} from "../../shared/maintenance/work-orders";
import type { workOrderMutators } from "../../shared/maintenance/work-order-mutators";
import type { Db } from "../../db/client";
import { parts, vendors, workOrderLines, workOrders } from "../../db/schema";
import { completeWorkOrderWrites, reopenWorkOrderWrites } from "../maintenance/work-order-completion";
import {
  addLineWrites,
  createPartWrites,
  createVendorWrites,
  createWorkOrderWrites,
  deleteLineWrites,
  deletePartWrites,
  deleteVendorWrites,
  deleteWorkOrderWrites,
  idTaken,
  updateLineWrites,
  updatePartWrites,
  updateVendorWrites,
  updateWorkOrderWrites,
} from "../maintenance/work-order-writes";
import { serviceIdTaken } from "../maintenance/service-writes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";
import { refusingApiErrors } from "./service-mutators";

type Refuse = (message: string) => never;
type ServerMutator = (
  db: Db,
  workspaceId: string,
  input: unknown,
  caller: MutationCaller,
) => Promise<BatchItem<"sqlite">[]>;

/**
 * The authoritative side of shared/maintenance/work-order-mutators.ts, through the REST routes' own
 * checks and writes (worker/maintenance/work-order-writes.ts, work-order-completion.ts): what the
 * API would answer with a 4xx (a 409 too: completing twice, stock below zero) is refused here with
 * its message, and nothing is written. An id already taken (a replay, or someone else's) is
 * refused; a completion replayed finds the order completed and is refused, so nothing is done twice.
 */
type Names = keyof typeof workOrderMutators;
type StockNames = "createPart" | "updatePart" | "deletePart" | "createVendor" | "updateVendor" | "deleteVendor";

export function workOrderServerMutators(refuse: Refuse): Record<Names, ServerMutator> {
  return { ...orderMutators(refuse), ...stockMutators(refuse) };
}

function refusingTaken(refuse: Refuse) {
  return async (db: Db, table: Parameters<typeof idTaken>[1], id: string, what: string) => {
    if (await idTaken(db, table, id)) refuse(`a ${what} with this id exists`);
  };
}

/** Parts and vendors. */
function stockMutators(refuse: Refuse): Record<StockNames, ServerMutator> {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);
  const refuseTaken = refusingTaken(refuse);
  const now = () => Date.now();
  return {
    async createPart(db, workspaceId, input, caller) {
      const { id, ...fields } = parse(createPartArgs, input);
      await refuseTaken(db, parts, id, "part");
      return createPartWrites(db, workspaceId, fields, { id, now: now() }).writes(caller.stamp);
    },
    async updatePart(db, workspaceId, input, caller) {
      const { id, ...patch } = parse(updatePartArgs, input);
      return (await checked(() => updatePartWrites(db, workspaceId, id, patch))).writes(caller.stamp);
    },
    async deletePart(db, workspaceId, input, caller) {
      const { id } = parse(workOrderIdArgs, input);
      return (await checked(() => deletePartWrites(db, workspaceId, id)))(caller.stamp);
    },
    async createVendor(db, workspaceId, input, caller) {
      const { id, ...fields } = parse(createVendorArgs, input);
      await refuseTaken(db, vendors, id, "vendor");
      return createVendorWrites(db, workspaceId, fields, { id, now: now() }).writes(caller.stamp);
    },
    async updateVendor(db, workspaceId, input, caller) {
      const { id, ...patch } = parse(updateVendorArgs, input);
      return (await checked(() => updateVendorWrites(db, workspaceId, id, patch))).writes(caller.stamp);
    },
    async deleteVendor(db, workspaceId, input, caller) {
      const { id } = parse(workOrderIdArgs, input);
      return (await checked(() => deleteVendorWrites(db, workspaceId, id)))(caller.stamp);
    },
  };
}

/** Work orders and their lines. */
function orderMutators(refuse: Refuse): Record<Exclude<Names, StockNames>, ServerMutator> {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);
  const now = () => Date.now();
  const refuseTaken = refusingTaken(refuse);
  return {
    async createWorkOrder(db, workspaceId, input, caller) {
      const { id, createdAt: _at, ...fields } = parse(createWorkOrderArgs, input);
      await refuseTaken(db, workOrders, id, "work order");
      const { writes } = await checked(() =>
        createWorkOrderWrites(db, workspaceId, fields, { id, userId: caller.userId, now: now() }),
      );
      return writes(caller.stamp);
    },
    async updateWorkOrder(db, workspaceId, input, caller) {
      const { id, ...patch } = parse(updateWorkOrderArgs, input);
      const { writes } = await checked(() => updateWorkOrderWrites(db, workspaceId, id, patch, now()));
      return writes(caller.stamp);
    },
    async deleteWorkOrder(db, workspaceId, input, caller) {
      const { id } = parse(workOrderIdArgs, input);
      return (await checked(() => deleteWorkOrderWrites(db, workspaceId, id)))(caller.stamp);
    },
    async addWorkOrderLine(db, workspaceId, input, caller) {
      const { id, workOrderId, createdAt, ...line } = parse(addWorkOrderLineArgs, input);
      await refuseTaken(db, workOrderLines, id, "work order line");
      // Added when the person added it (offline, maybe long before this push), never later than now:
      // the push's own time would put lines added offline after those added since, or tie them.
      const at = now();
      const addedAt = Math.min(createdAt ?? at, at);
      const { writes } = await checked(() =>
        addLineWrites(db, workspaceId, workOrderId, line, { id, now: at, addedAt }),
      );
      return writes(caller.stamp);
    },
    async updateWorkOrderLine(db, workspaceId, input, caller) {
      const { id, workOrderId, ...patch } = parse(updateWorkOrderLineArgs, input);
      const { writes } = await checked(() => updateLineWrites(db, workspaceId, workOrderId, id, patch, now()));
      return writes(caller.stamp);
    },
    async deleteWorkOrderLine(db, workspaceId, input, caller) {
      const { id, workOrderId } = parse(deleteWorkOrderLineArgs, input);
      return (await checked(() => deleteLineWrites(db, workspaceId, workOrderId, id, now())))(caller.stamp);
    },
    async completeWorkOrder(db, workspaceId, input, caller) {
      const { id, serviceEntryId, ...body } = parse(completeWorkOrderArgs, input);
      if (await serviceIdTaken(db, "entry", serviceEntryId)) refuse("a service entry with this id exists");
      const { writes } = await checked(() =>
        completeWorkOrderWrites(db, workspaceId, id, body, { userId: caller.userId, serviceEntryId, now: now() }),
      );
      return writes(caller.stamp);
    },
    async reopenWorkOrder(db, workspaceId, input, caller) {
      const { id } = parse(workOrderIdArgs, input);
      return (await checked(() => reopenWorkOrderWrites(db, workspaceId, id, now())))(caller.stamp);
    },
  };
}
