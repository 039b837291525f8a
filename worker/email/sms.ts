import type { Db } from "../../db/client";
import type { CustomerMailOutcome } from "../../shared/jobs/job-shares";
import type { Config } from "../env";
import { audit } from "../lib/audit";
import { ApiError } from "../lib/errors";
import { timingSafeEqual } from "../lib/crypto";
import { customerMayGo, recordUnsubscribed, unsubscribePageUrl, type CustomerCaps } from "./customer-mail";
import { isMessagingService } from "../../shared/jobs/sms-account";
import type { TwilioAccount } from "./sms-account";

/**
 * Texts to customers (issue 53, docs/decisions/0085) through Twilio's Messages API, offered only
 * where the workspace configured its own Twilio account (worker/email/sms-account.ts,
 * docs/decisions/0093): a workspace's texts go through its account and no other. A text obeys
 * the customer mail rules of worker/email/customer-mail.ts: the same gate (sender confirmed, the
 * number not unsubscribed from the workspace, caps of its own: a text costs money and reaches a
 * phone), the workspace named, and the same unsubscribe page linked. A number that answered STOP
 * to Twilio is recorded as unsubscribed from the workspace.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
export const CUSTOMER_SMS_CAPS: CustomerCaps = [
  { name: "customer-sms-ws", max: 200, windowMs: DAY_MS },
  { name: "customer-sms-rcpt-ws", max: 10, windowMs: DAY_MS },
  { name: "customer-sms-rcpt", max: 30, windowMs: DAY_MS },
];
/** Twilio's error codes for a number that cannot get the text: invalid, not a mobile, unreachable. */
const UNDELIVERABLE_CODES = new Set([21211, 21214, 21612, 21614, 21408, 21606]);
/** Twilio's error code for a number that answered STOP (its Advanced Opt-Out). */
const OPTED_OUT_CODE = 21610;
/** A text's body at most: three segments. */
const SMS_MAX_CHARS = 459;

/** Where Twilio reports the delivery of a text the workspace sent (worker/api/sms-status.ts): its signature covers this URL. */
export const smsStatusUrl = (config: Config, workspaceId: string) =>
  new URL(`/api/sms/status/${encodeURIComponent(workspaceId)}`, config.APP_URL).href;

export interface CustomerSms {
  workspaceId: string;
  workspaceName: string;
  to: string;
  /** What to say, after the workspace's name; the unsubscribe link is added after it. */
  text: string;
  senderUserId: string | null;
  kind: string;
  /** Where Twilio reports the text's delivery (worker/api/sms-status.ts), naming the workspace. */
  statusCallback?: string;
}

export type SmsOutcome =
  | { outcome: "sent"; providerId: string }
  | { outcome: "bounced" | Exclude<CustomerMailOutcome, "sent">; providerId?: undefined };

/**
 * Sends a text if the gate allows; answers what became of it. Throws when Twilio could not be
 * asked or failed on its side (network, 429, 5xx): the caller tries again later.
 */
export async function sendCustomerSms(
  db: Db,
  config: Config,
  account: TwilioAccount,
  sms: CustomerSms,
): Promise<SmsOutcome> {
  const gate = await customerMayGo(db, config, sms, CUSTOMER_SMS_CAPS);
  if (gate !== "sent") {
    audit("customer_sms.outcome", { workspaceId: sms.workspaceId, kind: sms.kind, outcome: gate });
    return { outcome: gate };
  }
  const stop = await unsubscribePageUrl(config, sms.workspaceId, sms.to);
  const body =
    `${sms.workspaceName}: ${sms.text}`.slice(0, SMS_MAX_CHARS - stop.length - 20) + `\nNo more texts: ${stop}`;
  const answer = await postToTwilio(config.TWILIO_API_URL, account, {
    To: sms.to,
    Body: body,
    StatusCallback: sms.statusCallback,
  });
  const result = await outcomeOf(db, config, sms, answer);
  audit("customer_sms.outcome", { workspaceId: sms.workspaceId, kind: sms.kind, outcome: result.outcome });
  return result;
}

interface TwilioAnswer {
  status: number;
  body: { sid?: string; code?: number; message?: string };
}

async function postToTwilio(
  apiUrl: string,
  account: TwilioAccount,
  fields: Record<string, string | undefined>,
): Promise<TwilioAnswer> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value) form.set(key, value);
  // A Messaging Service picks the sending number itself; otherwise the sender is the number.
  form.set(isMessagingService(account.sender) ? "MessagingServiceSid" : "From", account.sender);
  const url = new URL(`/2010-04-01/Accounts/${account.accountSid}/Messages.json`, apiUrl);
  const res = await fetch(url, {
    method: "POST",
    headers: {
      Authorization: `Basic ${btoa(`${account.accountSid}:${account.authToken}`)}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: form,
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json().catch(() => ({}))) as TwilioAnswer["body"];
  return { status: res.status, body };
}

async function outcomeOf(db: Db, config: Config, sms: CustomerSms, answer: TwilioAnswer): Promise<SmsOutcome> {
  if (answer.status >= 200 && answer.status < 300 && answer.body.sid)
    return { outcome: "sent", providerId: answer.body.sid };
  if (answer.body.code === OPTED_OUT_CODE) {
    await recordUnsubscribed(db, config, sms.workspaceId, sms.to);
    return { outcome: "unsubscribed" };
  }
  if (answer.status === 400 && UNDELIVERABLE_CODES.has(answer.body.code ?? 0)) return { outcome: "bounced" };
  throw new Error(
    `Twilio answered ${answer.status} (code ${answer.body.code ?? "none"}): ${answer.body.message ?? ""}`,
  );
}

/**
 * Whether a delivery report came from Twilio for this account: its X-Twilio-Signature is the
 * base64 HMAC-SHA1, keyed by the account's auth token, of the URL it called followed by each form
 * field's name and value in the names' order (Twilio's "Webhooks security").
 */
export async function twilioSignatureValid(
  authToken: string,
  url: string,
  fields: Record<string, string>,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature || !authToken) return false;
  const data =
    url +
    Object.keys(fields)
      .sort()
      .map((k) => k + fields[k])
      .join("");
  const text = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", text.encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, text.encode(data)));
  const expected = btoa(String.fromCharCode(...mac));
  return timingSafeEqual(text.encode(expected), text.encode(signature));
}

/** Twilio's error code for credentials it does not know (its "Authenticate" error). */
const AUTHENTICATE_CODE = 20003;

/**
 * A test text through the workspace's kept account (`POST /api/workspace/sms/test`): not a
 * customer's message, so none of their gate or caps (the route's own limit bounds what it costs).
 * Answers Twilio's message SID, or an ApiError that says what to mend: the account refused (a
 * wrong SID or token), the text refused (the sender or the number, in Twilio's words), or Twilio
 * not reached (502, as Google is at sign-in).
 */
export async function sendTestSms(
  config: Config,
  account: TwilioAccount,
  test: { to: string; workspaceName: string },
): Promise<string> {
  const body =
    `${test.workspaceName}: a test text from the fleet app. ` + "Texts to your customers will come from this sender.";
  const answer = await postToTwilio(config.TWILIO_API_URL, account, { To: test.to, Body: body }).catch(() => null);
  if (!answer || answer.status === 429 || answer.status >= 500)
    throw new ApiError(502, "sms_provider_unreachable", "Twilio could not be reached. Try again in a minute.");
  if (answer.status >= 200 && answer.status < 300 && answer.body.sid) return answer.body.sid;
  if (answer.status === 401 || answer.body.code === AUTHENTICATE_CODE)
    throw new ApiError(
      400,
      "sms_account_refused",
      "Twilio refused the account: check the Account SID and enter the auth token again",
    );
  const twilio = answer.body.message ? `: ${answer.body.message}` : "";
  const code = answer.body.code ? ` (Twilio error ${answer.body.code})` : "";
  throw new ApiError(400, "sms_test_refused", `Twilio refused the text${twilio}${code}`);
}
