import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customerRecipients, workspaces } from "../../db/schema";
import type { CustomerMailOutcome } from "../../shared/jobs/job-shares";
import { reserveIn, type Limit } from "../auth/rate-limit";
import type { Config } from "../env";
import { audit } from "../lib/audit";
import { base64url, sha256Hex } from "../lib/crypto";
import { isConfirmed } from "./member-mail";
import { sendEmail } from "./email";

/**
 * Mail to people outside the product (a job's customer; issue 51, finding 5; docs/decisions/0072).
 * Unlike member mail (./member-mail.ts) it never asks whether the address is an account: a
 * customer has none, and the answer must not tell anyone whether an address has one. Every such
 * mail passes here:
 *
 * - its subject is fixed text; what members wrote (the workspace's name, the job's title) is only
 *   in the body, where the sending workspace is named;
 * - nothing goes while the member who causes it has not confirmed their own address;
 * - nothing goes to an address that unsubscribed from that workspace (one click: the
 *   List-Unsubscribe header, RFC 8058, and the link at the end of the body);
 * - at most CUSTOMER_MAIL_PER_WORKSPACE a day from one workspace, CUSTOMER_MAIL_PER_RECIPIENT_IN_WORKSPACE
 *   to one address from one workspace, and CUSTOMER_MAIL_PER_RECIPIENT to one address from every
 *   workspace together. Past a cap the mail is not sent (nothing is held: a delivery notice of
 *   tomorrow is no use).
 */
const DAY_MS = 24 * 60 * 60 * 1000;
export const CUSTOMER_MAIL_PER_WORKSPACE: Limit = { name: "customer-mail-ws", max: 200, windowMs: DAY_MS };
export const CUSTOMER_MAIL_PER_RECIPIENT_IN_WORKSPACE: Limit = {
  name: "customer-mail-rcpt-ws",
  max: 10,
  windowMs: DAY_MS,
};
export const CUSTOMER_MAIL_PER_RECIPIENT: Limit = { name: "customer-mail-rcpt", max: 30, windowMs: DAY_MS };
/** The caps of one channel: per workspace, per address in a workspace, per address from all. */
export type CustomerCaps = readonly [perWorkspace: Limit, perRecipientInWorkspace: Limit, perRecipient: Limit];
const MAIL_CAPS: CustomerCaps = [
  CUSTOMER_MAIL_PER_WORKSPACE,
  CUSTOMER_MAIL_PER_RECIPIENT_IN_WORKSPACE,
  CUSTOMER_MAIL_PER_RECIPIENT,
];

export interface CustomerMail {
  workspaceId: string;
  to: string;
  /** Fixed text: never anything a member wrote. */
  subject: string;
  /** The body's lines; the workspace's name is added before them and the unsubscribe link after. */
  lines: string[];
  /** The member who caused it (null for the workspace's own automation). */
  senderUserId: string | null;
  kind: string;
}

/** What became of a customer mail, and the provider's id of the message when it went. */
export interface CustomerMailResult {
  outcome: CustomerMailOutcome;
  providerId?: string;
}

/** Sends `mail` if its sender, the address's choice and the caps allow; answers what became of it. */
export async function sendCustomerMail(db: Db, config: Config, mail: CustomerMail): Promise<CustomerMailResult> {
  const to = mail.to.trim().toLowerCase();
  const workspace = await db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, mail.workspaceId))
    .get();
  if (!workspace) return { outcome: "not_sent" };
  const outcome = await customerMayGo(db, config, { ...mail, to }, MAIL_CAPS);
  let providerId: string | undefined;
  if (outcome === "sent") {
    const token = await unsubscribeToken(config, mail.workspaceId, to);
    providerId = await sendEmail(db, config, {
      to,
      subject: mail.subject,
      text: bodyOf(config, workspace.name, mail.lines, token),
      headers: {
        "List-Unsubscribe": `<${new URL(`/api/unsubscribe/${token}`, config.APP_URL).href}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
  }
  audit("customer_mail.outcome", { workspaceId: mail.workspaceId, kind: mail.kind, outcome });
  return { outcome, providerId };
}

/**
 * Whether a message to a customer may go, whichever the channel (an e-mail address, or a phone for
 * texts: worker/email/sms.ts): sender confirmed, address not unsubscribed, every cap with room.
 */
export async function customerMayGo(
  db: Db,
  config: Config,
  mail: Pick<CustomerMail, "workspaceId" | "to" | "senderUserId">,
  caps: CustomerCaps,
): Promise<CustomerMailOutcome> {
  if (mail.senderUserId && !(await isConfirmed(db, mail.senderUserId))) return "sender_unconfirmed";
  const tokenHash = await sha256Hex(await unsubscribeToken(config, mail.workspaceId, mail.to));
  await db
    .insert(customerRecipients)
    .values({ workspaceId: mail.workspaceId, recipient: mail.to, tokenHash })
    .onConflictDoNothing();
  const row = await db
    .select({ unsubscribedAt: customerRecipients.unsubscribedAt })
    .from(customerRecipients)
    .where(and(eq(customerRecipients.workspaceId, mail.workspaceId), eq(customerRecipients.recipient, mail.to)))
    .get();
  if (row?.unsubscribedAt != null) return "unsubscribed";
  const scale = config.RATE_LIMIT_SCALE;
  const [perWorkspace, perRecipientInWorkspace, perRecipient] = caps;
  for (const [limit, key] of [
    [perWorkspace, mail.workspaceId],
    [perRecipientInWorkspace, `${mail.workspaceId}|${mail.to}`],
    [perRecipient, mail.to],
  ] as const) {
    if (!(await reserveIn(db, limit, key, scale))) return "over_limit";
  }
  return "sent";
}

function bodyOf(config: Config, workspaceName: string, lines: string[], token: string): string {
  return [
    `This message was sent by "${workspaceName}", a business using Fleet Ops. The words in quotes are theirs.`,
    "",
    ...lines,
    "",
    `To get no more e-mails from "${workspaceName}": ${new URL(`/unsubscribe/${token}`, config.APP_URL).href}`,
  ].join("\n");
}

/** The page that stops messages from the workspace to the address (or phone), as the body links it. */
export async function unsubscribePageUrl(config: Config, workspaceId: string, recipient: string): Promise<string> {
  return new URL(`/unsubscribe/${await unsubscribeToken(config, workspaceId, recipient)}`, config.APP_URL).href;
}

/** Records that the address (or phone) refused the workspace's messages elsewhere (a text's STOP). */
export async function recordUnsubscribed(db: Db, config: Config, workspaceId: string, recipient: string) {
  const tokenHash = await sha256Hex(await unsubscribeToken(config, workspaceId, recipient));
  await db
    .insert(customerRecipients)
    .values({ workspaceId, recipient, tokenHash, unsubscribedAt: Date.now() })
    .onConflictDoUpdate({
      target: [customerRecipients.workspaceId, customerRecipients.recipient],
      set: { unsubscribedAt: sql`coalesce(${customerRecipients.unsubscribedAt}, excluded.unsubscribed_at)` },
    });
}

/**
 * The address's unsubscribe token for the workspace: an HMAC of the two under a key derived from
 * WEBHOOK_SECRET_KEY, so every mail carries the same link and only its SHA-256 is stored.
 */
async function unsubscribeToken(config: Config, workspaceId: string, recipient: string): Promise<string> {
  const text = new TextEncoder();
  const keyBytes = await crypto.subtle.digest("SHA-256", text.encode(`unsubscribe:${config.WEBHOOK_SECRET_KEY}`));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, text.encode(`${workspaceId}\n${recipient}`));
  return base64url(new Uint8Array(mac));
}

/** Records the unsubscribe a token stands for; answers the workspace's name, or null for no such token. */
export async function unsubscribe(db: Db, token: string): Promise<{ workspace: string } | null> {
  const tokenHash = await sha256Hex(token);
  const row = await db
    .select({
      workspaceId: customerRecipients.workspaceId,
      name: workspaces.name,
      at: customerRecipients.unsubscribedAt,
    })
    .from(customerRecipients)
    .innerJoin(workspaces, eq(workspaces.id, customerRecipients.workspaceId))
    .where(eq(customerRecipients.tokenHash, tokenHash))
    .get();
  if (!row) return null;
  if (row.at === null) {
    await db
      .update(customerRecipients)
      .set({ unsubscribedAt: Date.now() })
      .where(eq(customerRecipients.tokenHash, tokenHash));
    audit("customer_mail.unsubscribed", { workspaceId: row.workspaceId });
  }
  return { workspace: row.name };
}

/** What the unsubscribe page shows before the click: which workspace, and whether it is done already. */
export async function unsubscribeState(db: Db, token: string) {
  const row = await db
    .select({ name: workspaces.name, at: customerRecipients.unsubscribedAt })
    .from(customerRecipients)
    .innerJoin(workspaces, eq(workspaces.id, customerRecipients.workspaceId))
    .where(eq(customerRecipients.tokenHash, await sha256Hex(token)))
    .get();
  return row ? { workspace: row.name, unsubscribed: row.at !== null } : null;
}
