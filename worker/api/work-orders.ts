import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { Hono, type Context } from "hono";
import { z } from "zod";
import {
  completeWorkOrderBody,
  createWorkOrderBody,
  workOrderLineBody,
  workOrderLinePatch,
  workOrderPatchBody,
  workOrderQuery,
} from "../../shared/maintenance/work-orders";
import { requireSession, workspaceSession } from "../auth/session";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";
import { declared } from "./route-declaration/declare";
import { workOrderJson, workOrderLineJson } from "./work-order-answers";
import { completeWorkOrderWrites, completionRaced, reopenWorkOrderWrites } from "../maintenance/work-order-completion";
import {
  addLineWrites,
  createWorkOrderWrites,
  deleteLineWrites,
  deleteWorkOrderWrites,
  updateLineWrites,
  updateWorkOrderWrites,
} from "../maintenance/work-order-writes";
import {
  linesByOrder,
  linesOf,
  listWorkOrders,
  toLineJson,
  conflict,
  toWorkOrderJson,
  workOrderIn,
} from "../maintenance/work-order-rows";

/** A write of these routes: statements stamped with the commit's version (no live table among them). */
export type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];

/**
 * Work orders for integrators (issue 55, DESIGN.md "Maintenance"): members create them, add lines,
 * complete and reopen them; owners and admins delete them; viewers read. Every query is scoped to
 * the caller's workspace (another workspace's order is a 404 like one that does not exist), and
 * each write is one versioned commit (worker/workspace-object.ts): a completion's effects and their
 * undo land whole or not at all.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
const writeContext = (c: Context<AppEnv, any, any>) => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
export const commit = (c: Context<AppEnv, any, any>, workspaceId: string, writes: Writes) =>
  commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });

/** The order as it is now, with its lines. */
async function answerOf(c: Context<AppEnv>, workspaceId: string, id: string) {
  const [order, lines] = await Promise.all([
    workOrderIn(c.var.db, workspaceId, id),
    linesOf(c.var.db, workspaceId, id),
  ]);
  return toWorkOrderJson(order, lines, true);
}

const refusals = {
  400: "lines_required: the workspace requires a line (labour or part) and the order has none",
  409: "conflict: the order is completed (reopen it first) or cancelled, or a part would go below zero in stock",
};

export const workOrderRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary:
        "Work orders (the newest 500), by status (`active`: neither completed nor cancelled), vehicle, assignee, vendor",
      tag: "Maintenance",
      query: workOrderQuery,
      response: z.object({ workOrders: z.array(workOrderJson) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const rows = await listWorkOrders(c.var.db, workspaceId, c.req.valid("query"));
      const lines = await linesByOrder(
        c.var.db,
        workspaceId,
        rows.map((r) => r.id),
      );
      return c.json({ workOrders: rows.map((r) => toWorkOrderJson(r, lines.get(r.id) ?? [])) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Open a work order on a vehicle: its issues, due schedules and tasks, a mechanic or a vendor",
      tag: "Maintenance",
      body: createWorkOrderBody,
      response: workOrderJson,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const id = crypto.randomUUID();
      const { writes } = await createWorkOrderWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id,
        userId,
        now: Date.now(),
      });
      await commit(c, workspaceId, writes);
      return c.json(await answerOf(c, workspaceId, id), 201);
    },
  )
  .get(
    "/:id",
    declared({
      permission: "workspace.view",
      summary: "A work order with its lines",
      tag: "Maintenance",
      response: workOrderJson,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(await answerOf(c, workspaceId, c.req.param("id")));
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "fleet.edit",
      summary:
        "Change a work order's status (open, in_progress, on_hold, cancelled), assignee or vendor, due date, description, tasks or tax",
      tag: "Maintenance",
      body: workOrderPatchBody,
      response: workOrderJson,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const id = c.req.param("id");
      const { writes } = await updateWorkOrderWrites(c.var.db, workspaceId, id, c.req.valid("json"), Date.now());
      await commit(c, workspaceId, writes);
      return c.json(await answerOf(c, workspaceId, id));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete a work order and its lines (owners and admins); a completed one is reopened first",
      tag: "Maintenance",
      status: 204,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      await commit(c, workspaceId, await deleteWorkOrderWrites(c.var.db, workspaceId, c.req.param("id")));
      return c.body(null, 204);
    },
  )
  .post(
    "/:id/lines",
    declared({
      permission: "fleet.edit",
      summary:
        "Add a labour line (hours × rate, who) or a part line (quantity × unit cost, a part of the inventory or not)",
      tag: "Maintenance",
      body: workOrderLineBody,
      response: workOrderLineJson,
      status: 201,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { row, writes } = await addLineWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"), {
        id: crypto.randomUUID(),
        now: Date.now(),
      });
      await commit(c, workspaceId, writes);
      return c.json(toLineJson(row), 201);
    },
  )
  .patch(
    "/:id/lines/:lineId",
    declared({
      permission: "fleet.edit",
      summary: "Change a line's description, quantity, unit cost or worker",
      tag: "Maintenance",
      body: workOrderLinePatch,
      response: workOrderLineJson,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { id, lineId } = c.req.param();
      const { row, writes } = await updateLineWrites(
        c.var.db,
        workspaceId,
        id,
        lineId,
        c.req.valid("json"),
        Date.now(),
      );
      await commit(c, workspaceId, writes);
      return c.json(toLineJson(row));
    },
  )
  .delete(
    "/:id/lines/:lineId",
    declared({
      permission: "fleet.edit",
      summary: "Remove a line",
      tag: "Maintenance",
      status: 204,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { id, lineId } = c.req.param();
      await commit(c, workspaceId, await deleteLineWrites(c.var.db, workspaceId, id, lineId, Date.now()));
      return c.body(null, 204);
    },
  )
  .post(
    "/:id/complete",
    declared({
      permission: "fleet.edit",
      summary:
        "Complete a work order in one write: resolves its issues, restarts its schedules, records one service entry of its total, takes its parts from stock",
      tag: "Maintenance",
      body: completeWorkOrderBody,
      response: workOrderJson,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const id = c.req.param("id");
      const planned = () =>
        completeWorkOrderWrites(c.var.db, workspaceId, id, c.req.valid("json"), {
          userId,
          serviceEntryId: crypto.randomUUID(),
          now: Date.now(),
        });
      try {
        await commit(c, workspaceId, (await planned()).writes);
      } catch (error) {
        if (!completionRaced(error)) throw error;
        // Its guards failed, nothing was written: the checks again say what changed (a part now short: 409 naming it).
        await planned();
        throw conflict("The work order changed while it was being completed: nothing was written, try again");
      }
      return c.json(await answerOf(c, workspaceId, id));
    },
  )
  .post(
    "/:id/reopen",
    declared({
      permission: "fleet.edit",
      summary: "Reopen a completed work order: its completion's effects are undone (entry, issues, schedules, stock)",
      tag: "Maintenance",
      response: workOrderJson,
      errors: refusals,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const id = c.req.param("id");
      await commit(c, workspaceId, await reopenWorkOrderWrites(c.var.db, workspaceId, id, Date.now()));
      return c.json(await answerOf(c, workspaceId, id));
    },
  );
