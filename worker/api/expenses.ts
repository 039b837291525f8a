import { Hono, type Context } from "hono";
import { expenseBodySchema, expensePatchSchema, expenseQuerySchema } from "../../shared/expenses";
import { can } from "../../shared/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden } from "../lib/errors";
import { body, zod } from "../lib/validate";
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
  .get("/", zod("query", expenseQuerySchema), async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const query = c.req.valid("query");
    if (query.vehicleId) await fuelVehicle(c.var.db, workspaceId, query.vehicleId);
    return c.json({ expenses: await liveExpenses(c.var.db, workspaceId, query) });
  })
  .post("/", body(expenseBodySchema), async (c) => {
    const { workspaceId, userId } = sessionThat(c.var.session, "fleet.edit");
    const { row, writes } = await expenseWrites(c.var.db, workspaceId, c.req.valid("json"), {
      id: crypto.randomUUID(),
      userId,
      now: Date.now(),
    });
    await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
    return c.json(toExpense(row), 201);
  })
  .patch("/:id", body(expensePatchSchema), async (c) => {
    const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
    const { row, writes } = await expenseUpdateWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"));
    await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
    return c.json(toExpense(row));
  })
  .delete("/:id", async (c) => {
    const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
    const writes = await expenseDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
    await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
    return c.body(null, 204);
  });
