import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workspaceSmsAccounts } from "../../db/schema";
import { NO_SMS_ACCOUNT, type SmsAccount } from "../../shared/jobs/sms-account";
import { seal, unseal } from "../alerts/webhook-secret";

/**
 * Each workspace's own Twilio account (issue 53, docs/decisions/0093): a workspace's texts go
 * through its account and no other, and Twilio's delivery reports for them are checked with its
 * token. The token is sealed to the workspace (AES-256-GCM under WEBHOOK_SECRET_KEY, the workspace
 * id as associated data, worker/alerts/webhook-secret.ts): a copy of D1 alone does not hand it
 * out, and a sealed token moved to another workspace's row does not open.
 */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** An E.164 number, or a Messaging Service SID (MG…). */
  sender: string;
}

/** The workspace's account with its token opened, or null: no account, no texts. */
export async function twilioAccountOf(db: Db, keyBase64: string, workspaceId: string): Promise<TwilioAccount | null> {
  const row = await db
    .select()
    .from(workspaceSmsAccounts)
    .where(eq(workspaceSmsAccounts.workspaceId, workspaceId))
    .get();
  if (!row) return null;
  return {
    accountSid: row.accountSid,
    sender: row.sender,
    authToken: await unseal(keyBase64, workspaceId, row.authTokenSealed),
  };
}

/** Whether the workspace texts its customers (`customerSms`): one read, nothing opened. */
export async function smsConfigured(db: Db, workspaceId: string): Promise<boolean> {
  const row = await db
    .select({ id: workspaceSmsAccounts.workspaceId })
    .from(workspaceSmsAccounts)
    .where(eq(workspaceSmsAccounts.workspaceId, workspaceId))
    .get();
  return row !== undefined;
}

/** The account as the page shows it: the SID and the sender, never the token. */
export async function smsAccountView(db: Db, workspaceId: string): Promise<SmsAccount> {
  const row = await db
    .select({
      accountSid: workspaceSmsAccounts.accountSid,
      sender: workspaceSmsAccounts.sender,
      updatedAt: workspaceSmsAccounts.updatedAt,
    })
    .from(workspaceSmsAccounts)
    .where(eq(workspaceSmsAccounts.workspaceId, workspaceId))
    .get();
  if (!row) return NO_SMS_ACCOUNT;
  return {
    configured: true,
    accountSid: row.accountSid,
    from: row.sender,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** Saves the workspace's account, replacing any before it: texts from now on go through it. */
export async function saveTwilioAccount(db: Db, keyBase64: string, workspaceId: string, account: TwilioAccount) {
  const values = {
    accountSid: account.accountSid,
    sender: account.sender,
    authTokenSealed: await seal(keyBase64, workspaceId, account.authToken),
    updatedAt: Date.now(),
  };
  await db
    .insert(workspaceSmsAccounts)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: workspaceSmsAccounts.workspaceId, set: values });
}

/** Forgets the workspace's account: its customers are no longer texted. Answers whether there was one. */
export async function removeTwilioAccount(db: Db, workspaceId: string): Promise<boolean> {
  const removed = await db
    .delete(workspaceSmsAccounts)
    .where(eq(workspaceSmsAccounts.workspaceId, workspaceId))
    .returning({ id: workspaceSmsAccounts.workspaceId });
  return removed.length > 0;
}
