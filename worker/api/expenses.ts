import { Hono, type Context } from "hono";
import { z } from "zod";
import { expenseBodySchema, expensePatchSchema, expenseQuerySchema } from "../../shared/costs/expenses";
import { can } from "../../shared/account/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden } from "../lib/errors";
import { declared } from "./route-declaration/declare";
import { expense } from "./cost-answers";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";
import { fuelVehicle } from "../fuel/fuel-writes";
import { expenseDeleteWrites, expenseUpdateWrites, expenseWrites } from "../costs/expense-writes";
import { liveExpenses, toExpense } from "../costs/expense-list";

/**
 * Expenses for integrators (DESIGN.md "Fuel, costs and renewals"): members add them, owners and
 * admins correct and delete them, everyone reads. Scoped to the caller's workspace; another
 * workspace's vehicle or expense is a 404 like one that does not exist.
 */
function sessionThat(session: SessionInfo, action: "fleet.edit" | "maintenance.manage") {
  const scoped = workspaceSession(session);
  if (!can(session.role, action))
    throw forbidden(action === "fleet.edit" ? "Viewers cannot add expenses" : "Only owners and admins change expenses");
  return scoped;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
export const writeContext = (c: Context<AppEnv, any, any>) => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

export const expenseRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Expenses, newest first (at most 1,000; `from` and `to` are days, both included)",
      tag: "Fuel and costs",
      query: expenseQuerySchema,
      response: z.object({ expenses: z.array(expense) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const query = c.req.valid("query");
      if (query.vehicleId) await fuelVehicle(c.var.db, workspaceId, query.vehicleId);
      return c.json({ expenses: await liveExpenses(c.var.db, workspaceId, query) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Add an expense (members and up)",
      tag: "Fuel and costs",
      body: expenseBodySchema,
      response: expense,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = sessionThat(c.var.session, "fleet.edit");
      const { row, writes } = await expenseWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id: crypto.randomUUID(),
        userId,
        now: Date.now(),
      });
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toExpense(row), 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Correct an expense (owners and admins); null clears the note",
      tag: "Fuel and costs",
      body: expensePatchSchema,
      response: expense,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const { row, writes } = await expenseUpdateWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"));
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toExpense(row));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete an expense (owners and admins)",
      tag: "Fuel and costs",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const writes = await expenseDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.body(null, 204);
    },
  );
