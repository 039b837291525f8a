/**
 * The security audit trail: one structured JSON line per event on the Worker's log, so
 * `wrangler tail --format json` (or Logpush) can filter on `audit` and `event`. Never pass a
 * secret here (passwords, tokens, device ids, reset links): name the actor by its database ids,
 * and an e-mail only by `emailId` (a keyed-free SHA-256 pseudonym: lines about one address can be
 * joined, the address itself is not in the log).
 */
export type AuditEvent =
  | "signin.succeeded"
  | "signin.failed"
  | "signin.locked_out"
  | "signin.global_budget_spent"
  | "signin.second_factor_failed"
  | "signin.recovery_code_used"
  | "signup.refused"
  | "verify_email.refused"
  | "password.reset_refused"
  | "password.reset_mail_suppressed"
  | "password.change_refused"
  | "account.deleted"
  | "account.delete_refused"
  | "account.exported"
  | "totp.enabled"
  | "totp.disabled"
  | "ingest.refused"
  | "sync.bound_exceeded"
  | "password.reset_requested"
  | "password.reset_completed"
  | "password.changed"
  | "oauth.linked"
  | "session.revoked"
  | "tenant.access_refused"
  | "beacon.device_id_rotated"
  | "beacon.device_ids_replaced"
  | "member.invited"
  | "invite.resent"
  | "invite.limited"
  | "mail.held"
  | "email.confirmed"
  | "invite.revoked"
  | "invite.accepted"
  | "member.role_changed"
  | "member.removed"
  | "member.left"
  | "api_token.created"
  | "api_token.revoked"
  | "api_token.used"
  | "api_token.refused"
  | "share.created"
  | "share.ended"
  | "share.refused"
  | "job_share.created"
  | "job_share.mailed"
  | "job_share.ended"
  | "customer_mail.unsubscribed"
  | "customer_mail.outcome"
  | "customer_sms.outcome"
  | "customer_sms.report"
  | "customer_sms.account_set"
  | "customer_sms.account_removed"
  | "customer_sms.test_sent"
  | "customer_mail.report"
  | "customer_messages.set";

export type AuditFields = Record<string, string | number | boolean | null | undefined>;

export function audit(event: AuditEvent, fields: AuditFields = {}): void {
  console.log(JSON.stringify({ audit: true, event, at: new Date().toISOString(), ...fields }));
}

/** The pseudonym an e-mail is logged and rate-limited under (16 hex of its SHA-256). */
export async function emailId(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`email:${email.trim().toLowerCase()}`));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A `.catch` handler for a check that may refuse: the refusal goes on the audit trail (its code as
 * `reason`), then propagates unchanged.
 */
export function auditRefusal(event: AuditEvent, fields: AuditFields) {
  return (error: unknown): never => {
    const reason = (error as { code?: unknown })?.code;
    audit(event, { ...fields, reason: typeof reason === "string" ? reason : "error" });
    throw error;
  };
}
