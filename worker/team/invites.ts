import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import {
  canAssign,
  INVITE_TTL_MS,
  isRole,
  roleLabels,
  type InvitePreview,
  type InviteRow,
  type Role,
} from "../../shared/account/roles";
import type { Db } from "../../db/client";
import { heldMail, invites, memberships, users, workspaces } from "../../db/schema";
import { sendEmail } from "../email/email";
import { holdMail, isConfirmed } from "../email/member-mail";
import type { Config } from "../env";
import { LIMITS, reserve } from "../auth/rate-limit";
import { membershipRole } from "../auth/session";
import { audit } from "../lib/audit";
import { randomToken, sha256Hex } from "../lib/crypto";
import { ApiError, forbidden, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { alreadyMember } from "./members";

/** Still usable at `now`: not accepted, not revoked, not expired. */
const liveInvite = (now: number) =>
  [isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now)] as const;

/** An invite that was used, revoked or has expired: DESIGN.md "Teams" answers 410. */
const gone = (why: string) => new ApiError(410, "invite_gone", why);

const inviteLink = (appUrl: string, token: string) => `${appUrl.replace(/\/$/, "")}/invite/${token}`;

/**
 * The invitation e-mail. The workspace's name is whatever its owner typed, so it stays out of the
 * subject (issue 34: "You are invited to URGENT verify payroll at …"); the body names it quoted.
 */
async function mailInvite(db: Db, config: Config, workspaceId: string, email: string, role: Role, token: string) {
  const ws = await db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
  const name = ws?.name ?? "a workspace";
  await sendEmail(db, config, {
    to: email,
    subject: "You are invited to a workspace on Fleet Ops",
    text:
      `You have been invited to join the workspace "${name}" on Fleet Ops as ${roleLabels[role]}.\n\n` +
      `Accept the invitation: ${inviteLink(config.APP_URL, token)}\n\n` +
      `The link works once and expires in 7 days.`,
  });
}

/**
 * Mails the invite now, or, while its sender has not confirmed their own address, holds it (issue
 * 39): the invite stands and is listed, and `mailHeldInvites` mails it with a fresh link once they
 * confirm. The address invited cannot have confirmed anything yet: the invite is the only mail it
 * gets, under the per-address limits of `spendInviteMail` (docs/decisions/0041).
 */
async function mailOrHoldInvite(
  c: Context<AppEnv>,
  invite: { id: string; workspaceId: string; email: string; role: Role },
  token: string,
) {
  const { db, config, session } = c.var;
  if (await isConfirmed(db, session.userId))
    return mailInvite(db, config, invite.workspaceId, invite.email, invite.role, token);
  await holdMail(
    db,
    {
      senderKey: `user:${session.userId}`,
      senderUserId: session.userId,
      to: invite.email,
      kind: "invite",
      ref: invite.id,
      digestLine: "",
    },
    "sender_unconfirmed",
  );
}

/**
 * Invites held for their sender's confirmation (see mailOrHoldInvite) whose sender has now
 * confirmed: each still pending one gets a fresh token and 7 days, and is mailed. Claimed by
 * deleting the held row first, so two runs never mail one twice.
 */
export async function mailHeldInvites(db: Db, config: Config): Promise<number> {
  const held = await db
    .select({ id: heldMail.id, inviteId: heldMail.ref })
    .from(heldMail)
    .innerJoin(users, and(eq(users.id, heldMail.senderUserId), isNotNull(users.emailConfirmedAt)))
    .where(eq(heldMail.kind, "invite"))
    .limit(50)
    .all();
  let mailed = 0;
  for (const h of held) {
    const claimed = await db.delete(heldMail).where(eq(heldMail.id, h.id)).returning({ id: heldMail.id });
    if (!claimed.length || !h.inviteId) continue;
    const token = randomToken(32);
    const expiresAt = Date.now() + INVITE_TTL_MS;
    const [invite] = await db
      .update(invites)
      .set({ tokenHash: await sha256Hex(token), expiresAt })
      .where(and(eq(invites.id, h.inviteId), ...liveInvite(Date.now())))
      .returning({ workspaceId: invites.workspaceId, email: invites.email, role: invites.role });
    if (!invite || !isRole(invite.role)) continue;
    await mailInvite(db, config, invite.workspaceId, invite.email, invite.role, token);
    mailed++;
  }
  return mailed;
}

/**
 * One invitation e-mail's share of each budget (LIMITS.invites*), taken before anything is written
 * or sent: each take is one guarded statement, so parallel invites cannot pass a limit together.
 */
async function spendInviteMail(c: Context<AppEnv>, workspaceId: string, email: string) {
  const budgets = [
    [LIMITS.invitesPerMember, `${c.var.session.userId}|${workspaceId}`, "you can send"],
    [LIMITS.invitesPerWorkspace, workspaceId, "this workspace can send"],
    [LIMITS.invitesPerAddressInWorkspace, `${workspaceId}|${email}`, "this workspace can send to one address"],
    [LIMITS.invitesPerAddress, email, "one address can receive"],
  ] as const;
  for (const [limit, key, who] of budgets) {
    if (await reserve(c, limit, key)) continue;
    audit("invite.limited", { workspaceId, by: c.var.session.userId, limit: limit.name });
    c.header("Retry-After", String(Math.ceil(limit.windowMs / 1000)));
    throw new ApiError(
      429,
      "rate_limited",
      `At most ${Math.max(1, Math.floor(limit.max * c.var.config.RATE_LIMIT_SCALE))} invitation e-mails a day ${who}. Try again tomorrow.`,
    );
  }
}

/**
 * Invites an e-mail with a role: a random token, only its SHA-256 stored, 7 days. A live invite
 * to the same address is revoked first, so one address has one working link.
 */
export async function createInvite(
  c: Context<AppEnv>,
  workspaceId: string,
  email: string,
  role: Role,
): Promise<InviteRow> {
  const { db, access, session } = c.var;
  if (!canAssign(access.role, null, role)) throw forbidden("Only an owner can invite another owner");
  if (await alreadyMember(db, workspaceId, email)) {
    throw new ApiError(409, "already_member", "This person is already a member", {
      email: ["Already a member of this workspace"],
    });
  }
  await spendInviteMail(c, workspaceId, email);
  const token = randomToken(32);
  const row = {
    id: crypto.randomUUID(),
    workspaceId,
    email,
    role,
    tokenHash: await sha256Hex(token),
    invitedBy: session.userId,
    expiresAt: Date.now() + INVITE_TTL_MS,
  };
  await db.batch([
    db
      .update(invites)
      .set({ revokedAt: Date.now() })
      .where(
        and(
          eq(invites.workspaceId, workspaceId),
          eq(invites.email, email),
          isNull(invites.acceptedAt),
          isNull(invites.revokedAt),
        ),
      ),
    db.insert(invites).values(row),
  ]);
  await mailOrHoldInvite(c, row, token);
  audit("member.invited", { workspaceId, inviteId: row.id, role, by: session.userId });
  return { id: row.id, email, role, expiresAt: row.expiresAt };
}

async function pendingInvite(db: Db, workspaceId: string, inviteId: string) {
  const row = await db
    .select({ id: invites.id, email: invites.email, role: invites.role })
    .from(invites)
    .where(
      and(
        eq(invites.id, inviteId),
        eq(invites.workspaceId, workspaceId),
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
      ),
    )
    .get();
  if (!row || !isRole(row.role)) throw notFound("No such pending invite");
  return { ...row, role: row.role };
}

/** Resend: a new token and a fresh 7 days; the old link stops working at once. */
export async function resendInvite(c: Context<AppEnv>, workspaceId: string, inviteId: string): Promise<InviteRow> {
  const invite = await pendingInvite(c.var.db, workspaceId, inviteId);
  if (!canAssign(c.var.access.role, null, invite.role)) throw forbidden("Only an owner can resend an owner's invite");
  await spendInviteMail(c, workspaceId, invite.email);
  const token = randomToken(32);
  const expiresAt = Date.now() + INVITE_TTL_MS;
  await c.var.db
    .update(invites)
    .set({ tokenHash: await sha256Hex(token), expiresAt })
    .where(eq(invites.id, inviteId));
  await mailOrHoldInvite(c, { ...invite, workspaceId }, token);
  audit("invite.resent", { workspaceId, inviteId, by: c.var.session.userId });
  return { id: inviteId, email: invite.email, role: invite.role, expiresAt };
}

export async function revokeInvite(c: Context<AppEnv>, workspaceId: string, inviteId: string): Promise<void> {
  const invite = await pendingInvite(c.var.db, workspaceId, inviteId);
  if (!canAssign(c.var.access.role, null, invite.role)) throw forbidden("Only an owner can revoke an owner's invite");
  await c.var.db.update(invites).set({ revokedAt: Date.now() }).where(eq(invites.id, inviteId));
  audit("invite.revoked", { workspaceId, inviteId, by: c.var.session.userId });
}

async function inviteByToken(db: Db, token: string) {
  const row = await db
    .select({
      id: invites.id,
      workspaceId: invites.workspaceId,
      workspaceName: workspaces.name,
      email: invites.email,
      role: invites.role,
      expiresAt: invites.expiresAt,
      acceptedAt: invites.acceptedAt,
      revokedAt: invites.revokedAt,
      invitedBy: invites.invitedBy,
    })
    .from(invites)
    .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
    .where(eq(invites.tokenHash, await sha256Hex(token)))
    .get();
  // A resent invite's old token has no row any more: as unknown as a token never issued.
  if (!row) throw notFound("This invitation link is not valid");
  if (row.acceptedAt) throw gone("This invitation has already been used");
  if (row.revokedAt) throw gone("This invitation was revoked");
  if (row.expiresAt <= Date.now()) throw gone("This invitation has expired");
  // an invite is only as good as its sender's standing: one sent by someone who has since left or
  // no longer manages members (or may not grant this role) is withdrawn (issue 34)
  const sender = row.invitedBy ? await membershipRole(db, row.workspaceId, row.invitedBy) : null;
  if (!canAssign(sender, null, isRole(row.role) ? row.role : "owner")) throw gone("This invitation was withdrawn");
  return row;
}

/** What the invite page shows before anyone accepts: no session needed, nothing changes. */
export async function previewInvite(db: Db, token: string): Promise<InvitePreview> {
  const invite = await inviteByToken(db, token);
  const account = await db.select({ id: users.id }).from(users).where(eq(users.email, invite.email)).get();
  return {
    email: invite.email,
    workspaceName: invite.workspaceName,
    role: isRole(invite.role) ? invite.role : "viewer",
    accountExists: account !== undefined,
  };
}

/**
 * Accepts an invite for the signed-in account, which must have the invited e-mail. The claim is
 * one guarded UPDATE (still unused, unrevoked, unexpired, and this token) in the same batch as
 * the membership it creates, so of two accepts at once exactly one wins; the other gets 410.
 */
export async function acceptInvite(c: Context<AppEnv>, token: string): Promise<{ workspaceId: string; role: Role }> {
  const { db, session } = c.var;
  const invite = await inviteByToken(db, token);
  const me = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
  if (!me || me.email !== invite.email) {
    audit("tenant.access_refused", { userId: session.userId, workspaceId: invite.workspaceId, via: "invite_accept" });
    throw forbidden(`This invitation is for ${invite.email}. Sign in with that address to accept it.`);
  }
  const now = Date.now();
  const tokenHash = await sha256Hex(token);
  const [claimed] = await db.batch([
    db
      .update(invites)
      .set({ acceptedAt: now, acceptedBy: session.userId })
      .where(and(eq(invites.id, invite.id), eq(invites.tokenHash, tokenHash), ...liveInvite(now)))
      .returning({ role: invites.role }),
    // Only when the claim above won, in this very transaction (it set exactly these values).
    db
      .insert(memberships)
      .select(
        db
          .select({
            workspaceId: invites.workspaceId,
            userId: sql<string>`${invites.acceptedBy}`.as("user_id"),
            role: invites.role,
            createdAt: sql<number>`${now}`.as("created_at"),
          })
          .from(invites)
          .where(and(eq(invites.id, invite.id), eq(invites.acceptedBy, session.userId), eq(invites.acceptedAt, now))),
      )
      .onConflictDoNothing(),
  ]);
  if (claimed.length === 0) throw gone("This invitation has already been used");
  const member = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, invite.workspaceId), eq(memberships.userId, session.userId)))
    .get();
  const role = isRole(member?.role) ? member.role : "viewer";
  audit("invite.accepted", { workspaceId: invite.workspaceId, inviteId: invite.id, userId: session.userId, role });
  return { workspaceId: invite.workspaceId, role };
}
