import { LIMITS } from "../auth/rate-limit";
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { createWorkspaceSchema, workspaceSessionSchema } from "../../shared/account/auth";
import { can, inviteSchema, roleChangeSchema, type WorkspacesResponse } from "../../shared/account/roles";
import { endSession } from "../auth/end-sessions";
import { createSession, requireSession, signInOf } from "../auth/session";
import { memberships, workspaces } from "../../db/schema";
import { audit } from "../lib/audit";
import { forbidden } from "../lib/errors";
import { createInvite, resendInvite, revokeInvite } from "../team/invites";
import { changeRole, membersOf, removeMember, workspacesOf } from "../team/members";
import type { AppEnv } from "../types";
import { okAnswer, tokenAnswer } from "./route-declaration/answers";
import { declared, perUser } from "./route-declaration/declare";

/**
 * Creating a workspace and switching the session to one (docs/product.md section 7); its members and
 * invites (DESIGN.md "Teams"). Who may call each route: its declared permission, enforced by worker/api/route-rules.ts, which also
 * sets `c.var.access` (the workspace of `:id` and the caller's role there).
 */
export const workspaceRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get("/", declared({ permission: "signed-in", summary: "The person's workspaces", tag: "Workspaces" }), async (c) => {
    const answer: WorkspacesResponse = { workspaces: await workspacesOf(c.var.db, c.var.session.userId) };
    return c.json(answer);
  })
  .get(
    "/:id/members",
    declared({ permission: "workspace.view", summary: "Members and pending invites", tag: "Members" }),
    async (c) => {
      const { workspaceId, role } = c.var.access;
      return c.json(await membersOf(c.var.db, workspaceId, can(role, "members.manage")));
    },
  )
  .post(
    "/:id/invites",
    declared({
      permission: "members.manage",
      summary: "Invite someone",
      tag: "Members",
      body: inviteSchema,
      status: 201,
    }),
    async (c) => {
      const { email, role } = c.req.valid("json");
      return c.json(await createInvite(c, c.var.access.workspaceId, email, role), 201);
    },
  )
  .post(
    "/:id/invites/:inviteId/resend",
    declared({ permission: "members.manage", summary: "Resend an invite", tag: "Members" }),
    async (c) => {
      return c.json(await resendInvite(c, c.var.access.workspaceId, c.req.param("inviteId")));
    },
  )
  .delete(
    "/:id/invites/:inviteId",
    declared({ permission: "members.manage", summary: "Revoke an invite", tag: "Members", response: okAnswer }),
    async (c) => {
      await revokeInvite(c, c.var.access.workspaceId, c.req.param("inviteId"));
      return c.json({ ok: true });
    },
  )
  .patch(
    "/:id/members/:userId",
    declared({
      permission: "members.manage",
      summary: "Change a member's role",
      tag: "Members",
      body: roleChangeSchema,
      response: okAnswer,
    }),
    async (c) => {
      await changeRole(c, c.var.access.workspaceId, c.req.param("userId"), c.req.valid("json").role);
      return c.json({ ok: true });
    },
  )
  .delete(
    "/:id/members/:userId",
    declared({
      permission: "workspace.leave",
      summary: "Remove a member, or leave",
      tag: "Members",
      response: okAnswer,
    }),
    async (c) => {
      await removeMember(c, c.var.access.workspaceId, c.req.param("userId"));
      return c.json({ ok: true });
    },
  )
  .post(
    "/",
    declared({
      permission: "signed-in",
      summary: "Create a workspace",
      tag: "Workspaces",
      body: createWorkspaceSchema,
      status: 201,
      limits: [
        perUser(LIMITS.workspaceCreations, {
          event: "sync.bound_exceeded",
          fields: (c) => ({ userId: c.var.session.userId, bound: "workspaces_per_day" }),
        }),
      ],
    }),
    async (c) => {
      const { name, timeZone } = c.req.valid("json");
      const id = crypto.randomUUID();
      await c.var.db.batch([
        c.var.db.insert(workspaces).values({ id, name, ...(timeZone ? { timeZone } : {}) }),
        c.var.db.insert(memberships).values({ workspaceId: id, userId: c.var.session.userId, role: "owner" }),
      ]);
      return c.json({ id, name }, 201);
    },
  )
  .post(
    "/session",
    declared({
      permission: "signed-in",
      summary: "Switch the session to a workspace",
      tag: "Workspaces",
      body: workspaceSessionSchema,
      response: tokenAnswer,
    }),
    async (c) => {
      const { workspaceId } = c.req.valid("json");
      const member = await c.var.db
        .select({ id: memberships.workspaceId })
        .from(memberships)
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, c.var.session.userId)))
        .get();
      if (!member) {
        audit("tenant.access_refused", { userId: c.var.session.userId, workspaceId, via: "workspace_switch" });
        throw forbidden("You are not a member of this workspace");
      }
      // A token names one workspace: switching issues a new token of the same sign-in (same id, same
      // absolute end) and revokes the one it replaces, so only one of them is ever live.
      const { db, session } = c.var;
      const token = await createSession(db, session.userId, workspaceId, await signInOf(db, session.tokenHash));
      await endSession(c, session.tokenHash, "workspace_switch");
      return c.json({ token });
    },
  );
