import { and, eq, inArray, isNotNull, lt, ne } from "drizzle-orm";
import { chunkRows, inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { heldMail, users } from "../../db/schema";
import { reserveIn, type Limit } from "../auth/rate-limit";
import type { Config } from "../env";
import { audit } from "../lib/audit";
import { sendEmail, type Email } from "./email";

/**
 * Mail that a member can cause to be sent to someone else (issue 39, finding 2; docs/decisions/0041):
 * issue assignments, alert and service e-mails, the relay's reports. Every one passes here:
 *
 * - its subject is fixed text chosen by the caller, never what a member wrote (that goes in the body);
 * - nothing goes to an address that was never confirmed, nor while the sender's own address is
 *   unconfirmed: it is held, and summed up in one digest once both are;
 * - at most MAIL_PER_RECIPIENT_PER_SENDER a day to one recipient from one sender (a person, or a
 *   workspace for what its rules send); the rest is held and summed up in one digest the next day.
 *
 * Password resets, sign-in notices and the confirmation link go to the account's own address and
 * do not pass here (worker/auth/notices.ts, worker/api/password.ts).
 */
export const MAIL_PER_RECIPIENT_PER_SENDER: Limit = {
  name: "mail-recipient-sender",
  max: 5,
  windowMs: 24 * 60 * 60 * 1000,
};
/** Held mail nobody could confirm for this long is dropped. */
export const HELD_MAIL_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface MemberMail extends Email {
  /** Whom the daily share counts against: `user:{id}` or `workspace:{id}`. */
  senderKey: string;
  /** The person who caused it, whose address must be confirmed first; null for a workspace's rule. */
  senderUserId: string | null;
  kind: string;
  /** The digest's line for it. */
  digestLine: string;
}

export type MailOutcome = "sent" | "held";

/** Whether each address belongs to an account whose address is confirmed (an unknown address: no). */
export async function confirmedAddresses(db: Db, emails: string[]): Promise<Set<string>> {
  const confirmed = new Set<string>();
  for (const part of inLists(emails)) {
    const rows = await db
      .select({ email: users.email })
      .from(users)
      .where(and(inArray(users.email, part), isNotNull(users.emailConfirmedAt)))
      .all();
    for (const row of rows) confirmed.add(row.email);
  }
  return confirmed;
}

/** Whether the account's own address is confirmed. */
export async function isConfirmed(db: Db, userId: string): Promise<boolean> {
  const row = await db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).get();
  return row?.at !== null && row?.at !== undefined;
}

/** Sends `mail` now, or holds it for a digest (see above). */
export async function sendMemberMail(db: Db, config: Config, mail: MemberMail): Promise<MailOutcome> {
  const to = mail.to.toLowerCase();
  const reason = !(await confirmedAddresses(db, [to])).has(to)
    ? "recipient_unconfirmed"
    : mail.senderUserId && !(await isConfirmed(db, mail.senderUserId))
      ? "sender_unconfirmed"
      : !(await reserveIn(db, MAIL_PER_RECIPIENT_PER_SENDER, `${mail.senderKey}|${to}`, config.RATE_LIMIT_SCALE))
        ? "over_daily"
        : null;
  if (reason === null) {
    await sendEmail(db, config, { ...mail, to });
    return "sent";
  }
  await holdMail(db, { ...mail, to }, reason);
  return "held";
}

export async function holdMail(
  db: Db,
  mail: Pick<MemberMail, "senderKey" | "senderUserId" | "to" | "kind" | "digestLine"> & { ref?: string },
  reason: string,
) {
  await db.insert(heldMail).values({
    id: crypto.randomUUID(),
    senderKey: mail.senderKey,
    senderUserId: mail.senderUserId,
    recipient: mail.to.toLowerCase(),
    kind: mail.kind,
    ref: mail.ref ?? null,
    digestLine: mail.digestLine,
    reason,
    // On the Worker's clock, which the digest's "held before today" is read by (not D1's default).
    createdAt: Date.now(),
  });
  audit("mail.held", { kind: mail.kind, reason, sender: mail.senderKey });
}

/**
 * Sends each recipient one digest of their held mail that may go now: recipient confirmed, sender
 * (if a person) confirmed, and, for mail over the daily share, held before today (UTC) began, so a
 * recipient gets at most one such digest a day. Rows are claimed by deleting them first, so two
 * runs never send one twice. Held invites are not summed up (worker/team/invites.ts mails them).
 * Run by the cron and right after an address is confirmed.
 */
export async function sendMailDigests(db: Db, config: Config, now = Date.now()): Promise<number> {
  await db.delete(heldMail).where(lt(heldMail.createdAt, now - HELD_MAIL_DAYS * DAY_MS));
  return sendDigests(db, config, await digestable(db, now));
}

/** The held rows that may go now, by recipient (see sendMailDigests); a few hundred a run. */
async function digestable(db: Db, now: number) {
  const startOfDay = now - (now % DAY_MS);
  const rows = await db
    .select({
      id: heldMail.id,
      recipient: heldMail.recipient,
      line: heldMail.digestLine,
      reason: heldMail.reason,
      at: heldMail.createdAt,
      senderUserId: heldMail.senderUserId,
    })
    .from(heldMail)
    .innerJoin(users, and(eq(users.email, heldMail.recipient), isNotNull(users.emailConfirmedAt)))
    .where(ne(heldMail.kind, "invite"))
    .limit(500)
    .all();
  const confirmedSenders = await confirmedUsers(db, [
    ...new Set(rows.flatMap((r) => (r.senderUserId ? [r.senderUserId] : []))),
  ]);
  const byRecipient = new Map<string, { id: string; line: string }[]>();
  for (const r of rows) {
    if (r.senderUserId && !confirmedSenders.has(r.senderUserId)) continue;
    if (r.reason === "over_daily" && r.at >= startOfDay) continue;
    byRecipient.set(r.recipient, [...(byRecipient.get(r.recipient) ?? []), { id: r.id, line: r.line }]);
  }
  return byRecipient;
}

/** Which of these accounts have confirmed their address (IN lists chunked for D1's 100 bound values). */
async function confirmedUsers(db: Db, ids: string[]): Promise<Set<string>> {
  const confirmed = new Set<string>();
  for (const chunk of chunkRows(ids, 1)) {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, chunk), isNotNull(users.emailConfirmedAt)))
      .all();
    for (const r of rows) confirmed.add(r.id);
  }
  return confirmed;
}

async function sendDigests(db: Db, config: Config, byRecipient: Map<string, { id: string; line: string }[]>) {
  let sent = 0;
  for (const [to, held] of byRecipient) {
    const claimed = new Set<string>();
    for (const chunk of chunkRows(held, 1)) {
      // in-list: one id a row of a chunkRows(held, 1) chunk
      const rows = await db
        .delete(heldMail)
        .where(
          inArray(
            heldMail.id,
            chunk.map((h) => h.id),
          ),
        )
        .returning({ id: heldMail.id });
      for (const r of rows) claimed.add(r.id);
    }
    const lines = held.filter((h) => claimed.has(h.id)).map((h) => `- ${h.line}`);
    if (!lines.length) continue;
    await sendEmail(db, config, {
      to,
      subject: "Your Fleet Ops notifications",
      text: [
        `${lines.length} notification${lines.length === 1 ? "" : "s"} you did not get by e-mail one by one:`,
        "",
        ...lines,
        "",
        `Open Fleet Ops: ${config.APP_URL}`,
      ].join("\n"),
    });
    sent++;
  }
  return sent;
}
