import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import type { Context } from "hono";
import { canAssign, isRole, type MembersResponse, type Role } from "../../shared/account/roles";
import { membershipRole } from "../auth/session";
import type { Db } from "../../db/client";
import { invites, memberships, users, workspaces } from "../../db/schema";
import { audit } from "../lib/audit";
import { ApiError, forbidden, notFound } from "../lib/errors";
import { announceWrites } from "../workspace-object";
import { endCredentials, endedShares } from "./credentials";
import type { AppEnv } from "../types";

/** A workspace always keeps at least one owner (DESIGN.md "Teams": 409). */
const lastOwner = () => new ApiError(409, "last_owner", "A workspace must keep at least one owner");

/** The caller's workspaces with their role there: `GET /api/workspaces`. */
export async function workspacesOf(db: Db, userId: string) {
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.name))
    .all();
  return rows.filter((r): r is typeof r & { role: Role } => isRole(r.role));
}

/** Members with their e-mail and role; pending invites only for those who manage members. */
export async function membersOf(db: Db, workspaceId: string, withInvites: boolean): Promise<MembersResponse> {
  const members = await db
    .select({ userId: memberships.userId, email: users.email, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(users.email))
    .all();
  const pending = withInvites
    ? await db
        .select({ id: invites.id, email: invites.email, role: invites.role, expiresAt: invites.expiresAt })
        .from(invites)
        .where(and(eq(invites.workspaceId, workspaceId), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
        .orderBy(asc(invites.email))
        .all()
    : [];
  return {
    members: members.map((m) => ({ ...m, role: isRole(m.role) ? m.role : "viewer" })),
    invites: pending.map((i) => ({ ...i, role: isRole(i.role) ? i.role : "viewer" })),
  };
}

async function currentRole(db: Db, workspaceId: string, userId: string): Promise<Role> {
  const role = await membershipRole(db, workspaceId, userId);
  if (role === null) throw notFound("No such member in this workspace");
  return isRole(role) ? role : "viewer";
}

/** SQL that is true while the workspace has an owner other than `userId`: the guard on demoting or removing an owner. */
const anotherOwner = (workspaceId: string, userId: string) =>
  sql`exists (select 1 from ${memberships} m2 where m2.workspace_id = ${workspaceId} and m2.role = 'owner' and m2.user_id != ${userId})`;

/** SQL that is true once `userId` is no longer a member of the workspace (the removal above committed). */
const notMember = (workspaceId: string, userId: string) =>
  sql`not exists (select 1 from ${memberships} m4 where m4.workspace_id = ${workspaceId} and m4.user_id = ${userId})`;

/** The membership row to change or remove, guarded (when it is an owner's) by the last-owner rule. */
const membershipUnlessLastOwner = (workspaceId: string, userId: string, role: Role) =>
  and(
    eq(memberships.workspaceId, workspaceId),
    eq(memberships.userId, userId),
    role === "owner" ? anotherOwner(workspaceId, userId) : undefined,
  );

/**
 * Changes a member's role. The last-owner rule is in the UPDATE itself (one guarded statement),
 * so two owners demoting each other at once cannot leave the workspace without one.
 */
export async function changeRole(c: Context<AppEnv>, workspaceId: string, userId: string, to: Role): Promise<void> {
  const { db, access } = c.var;
  const from = await currentRole(db, workspaceId, userId);
  if (!canAssign(access.role, from, to)) throw forbidden("Only an owner can grant or take away the owner role");
  if (from === to) return;
  const changed = await db
    .update(memberships)
    .set({ role: to })
    .where(membershipUnlessLastOwner(workspaceId, userId, from))
    .returning({ userId: memberships.userId })
    .all();
  if (changed.length === 0) throw lastOwner();
  audit("member.role_changed", { workspaceId, userId, from, to, by: c.var.session.userId });
}

/**
 * Removes a member (or the caller leaving): the membership goes and with it every credential they
 * hold here (worker/team/credentials.ts: sessions stop naming this workspace, their API tokens and
 * share links end, pending invites they sent are revoked, their report e-mail and push
 * notices stop), and the room
 * closes their sockets at once. Their pulls and pushes are refused from the next request.
 */
export async function removeMember(c: Context<AppEnv>, workspaceId: string, userId: string): Promise<void> {
  const { db, access, session } = c.var;
  const leaving = userId === session.userId;
  const from = await currentRole(db, workspaceId, userId);
  if (!leaving && !canAssign(access.role, from, null)) throw forbidden("Your role does not allow removing this member");
  // Every credential they hold here ends in the same transaction, only if the removal committed.
  const results = await db.batch([
    db
      .delete(memberships)
      .where(membershipUnlessLastOwner(workspaceId, userId, from))
      .returning({ userId: memberships.userId }),
    ...endCredentials(db, { userId, workspaceId, guard: notMember(workspaceId, userId) }),
  ]);
  const removed = results[0] as { userId: string }[];
  if (removed.length === 0) throw lastOwner();
  audit(leaving ? "member.left" : "member.removed", { workspaceId, userId, role: from, by: session.userId });
  // One announcement: their sockets close and the links they made stop showing, at once.
  const endedTokenHashes = endedShares(results, 1).get(workspaceId) ?? [];
  await announceWrites({ env: c.env }, [workspaceId], {
    change: { members: { removedUserIds: [userId] }, shares: { endedTokenHashes }, poke: false },
  });
}

/** Which of these e-mail addresses belong to current members of the workspace. */
export async function membersAmong(db: Db, workspaceId: string, emails: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of inLists(emails)) {
    const rows = await db
      .select({ email: users.email })
      .from(users)
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.workspaceId, workspaceId)))
      .where(inArray(users.email, part))
      .all();
    for (const row of rows) found.add(row.email);
  }
  return found;
}

/** Whether the account with this e-mail is already a member of the workspace. */
export async function alreadyMember(db: Db, workspaceId: string, email: string): Promise<boolean> {
  return (await membersAmong(db, workspaceId, [email])).has(email);
}
