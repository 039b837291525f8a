import { and, desc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { endSessions } from "../auth/end-sessions";
import { requireSession } from "../auth/session";
import { audit, auditRefusal } from "../lib/audit";
import { ApiError, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared, perUser } from "./route-declaration/declare";
import {
  deleteAccountSchema,
  type ActiveSession,
  type ActiveSessionsAnswer,
  type DeletionPlanAnswer,
} from "../../shared/account/account";
import { deleteAccount, planDeletion } from "../account/delete-account";
import { exportAccount } from "../account/export-account";
import { deleteWorkspacePositions } from "../workspace-object";
import { verifyPassword } from "../auth/password";
import { secondFactorHolds } from "./two-factor";
import { clientIp, LIMITS } from "../auth/rate-limit";
import { passwordCredentials, sessions, totpCredentials, users } from "../../db/schema";

/**
 * The account's active sign-ins and sign-out of any one of them (ASVS V3.3.4): the id is the
 * sign-in id, scoped to the caller, so another account's sign-in is a 404 like an unknown one.
 */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/sessions",
    declared({ permission: "signed-in", summary: "The account's sign-ins", tag: "Account" }),
    async (c) => {
      const { db, session } = c.var;
      const now = Date.now();
      const signinId = sql<string>`coalesce(${sessions.signinId}, ${sessions.tokenHash})`;
      const rows = await db
        .select({
          id: signinId,
          device: sql<string | null>`max(${sessions.userAgent})`,
          network: sql<string | null>`max(${sessions.network})`,
          signedInAt: sql<number>`min(${sessions.createdAt})`,
          lastUsedAt: sql<number>`max(coalesce(${sessions.lastUsedAt}, ${sessions.createdAt}))`,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, session.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .groupBy(signinId)
        .orderBy(desc(sql`max(coalesce(${sessions.lastUsedAt}, ${sessions.createdAt}))`))
        .limit(100)
        .all();
      const list: ActiveSession[] = rows.map((r) => ({ ...r, current: r.id === session.signinId }));
      return c.json<ActiveSessionsAnswer>({ sessions: list });
    },
  )
  .post(
    "/sessions/:id/signout",
    declared({
      permission: "signed-in",
      summary: "End one sign-in of the account",
      tag: "Account",
      params: z.object({ id: z.string().min(1).max(100) }),
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { db, session } = c.var;
      const mine = await db
        .select({ id: sessions.tokenHash })
        .from(sessions)
        .where(
          and(eq(sessions.userId, session.userId), sql`coalesce(${sessions.signinId}, ${sessions.tokenHash}) = ${id}`),
        )
        .get();
      if (!mine) {
        audit("tenant.access_refused", { userId: session.userId, via: "session_signout" });
        throw notFound("No such session");
      }
      // Its open sockets are closed by their rooms (endSessions tells them).
      const ended = await endSessions(c, { signinId: id }, "session_signed_out");
      return c.json({ ok: true, ended });
    },
  )
  // "Download my data" (worker/account/export-account.ts).
  .get(
    "/export",
    declared({ permission: "signed-in", summary: "Export the account's data", tag: "Account" }),
    async (c) => {
      const data = await exportAccount(c.var.db, c.var.session.userId);
      audit("account.exported", { userId: c.var.session.userId });
      c.header("Content-Disposition", 'attachment; filename="fleet-ops-account.json"');
      return c.json(data);
    },
  )

  .get(
    "/deletion",
    declared({ permission: "signed-in", summary: "What deleting the account would delete", tag: "Account" }),
    async (c) => {
      const { db, session } = c.var;
      const plan = await planDeletion(db, session.userId);
      const password = await db
        .select({ userId: passwordCredentials.userId })
        .from(passwordCredentials)
        .where(eq(passwordCredentials.userId, session.userId))
        .get();
      return c.json<DeletionPlanAnswer>({
        ...plan,
        hasPassword: password !== undefined,
        hasSecondFactor: await twoFactorOn(db, session.userId),
      });
    },
  )

  // Account deletion (ASVS V8.3.2): confirmed by the e-mail typed again and the password; refused
  // while the account is the only owner of a workspace others use; its sockets closed first.
  .post(
    "/delete",
    declared({
      permission: "signed-in",
      summary: "Delete the account",
      tag: "Account",
      body: deleteAccountSchema,
      limits: [
        perUser(LIMITS.passwordChange, {
          event: "account.delete_refused",
          fields: (c) => ({ userId: c.var.session.userId, ip: clientIp(c) }),
        }),
      ],
    }),
    async (c) => {
      const { db, session } = c.var;
      const { email, password, code } = c.req.valid("json");
      const refused = auditRefusal("account.delete_refused", { userId: session.userId, ip: clientIp(c) });
      const owner = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
      if (owner?.email !== email)
        refused(
          new ApiError(400, "email_mismatch", "Type your account's e-mail to confirm", {
            email: ["Type your account's e-mail to confirm"],
          }),
        );
      const credential = await db
        .select()
        .from(passwordCredentials)
        .where(eq(passwordCredentials.userId, session.userId))
        .get();
      if (credential && !(await verifyPassword(password ?? "", credential.hash))) {
        refused(new ApiError(400, "invalid_credentials", "Wrong password", { password: ["Wrong password"] }));
      }
      // the second factor too, whether the account signs in with a password or with Google only (issue 34)
      if ((await twoFactorOn(db, session.userId)) && !(code && (await secondFactorHolds(c, session.userId, code)))) {
        refused(
          new ApiError(400, "invalid_code", "Enter a code from your authenticator app or a recovery code", {
            code: ["Enter a code from your authenticator app or a recovery code"],
          }),
        );
      }
      const plan = await planDeletion(db, session.userId);
      if (plan.blocking.length > 0) {
        const names = plan.blocking.map((w) => w.name).join(", ");
        refused(
          new ApiError(
            409,
            "last_owner",
            `You are the only owner of ${names}. Make another member an owner (Team) first.`,
          ),
        );
      }
      await endSessions(c, { userId: session.userId }, "account_deleted");
      // the batch itself refuses if a co-owner deleting at the same moment left this account the last owner
      const sole = plan.deleted.map((w) => w.id);
      if (!(await deleteAccount(c.env, db, session.userId, sole)))
        refused(
          new ApiError(
            409,
            "last_owner",
            "You are now the only owner of a workspace others use. Make another member an owner (Team) first.",
          ),
        );
      // Positions live in each workspace's object and R2, outside D1's batch (docs/decisions/0023).
      await deleteWorkspacePositions(c.env, sole);
      audit("account.deleted", { userId: session.userId, workspacesDeleted: plan.deleted.length });
      return c.json({ ok: true, deletedWorkspaces: plan.deleted });
    },
  );

/** Whether the account has two-factor authentication on. */
async function twoFactorOn(db: AppEnv["Variables"]["db"], userId: string): Promise<boolean> {
  return (
    (await db
      .select({ userId: totpCredentials.userId })
      .from(totpCredentials)
      .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.enabledAt)))
      .get()) !== undefined
  );
}
