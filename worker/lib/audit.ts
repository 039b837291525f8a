/**
 * The security audit trail: one structured JSON line per event on the Worker's log, so
 * `wrangler tail --format json` (or Logpush) can filter on `audit` and `event`. Never pass a
 * secret here (passwords, tokens, device ids, reset links): name the actor by its database ids.
 */
export type AuditEvent =
  | "signin.succeeded"
  | "signin.failed"
  | "signin.locked_out"
  | "password.reset_requested"
  | "password.reset_completed"
  | "password.changed"
  | "oauth.linked"
  | "session.revoked"
  | "tenant.access_refused"
  | "beacon.device_id_rotated"
  | "member.invited"
  | "invite.resent"
  | "invite.revoked"
  | "invite.accepted"
  | "member.role_changed"
  | "member.removed"
  | "member.left";

export type AuditFields = Record<string, string | number | boolean | null | undefined>;

export function audit(event: AuditEvent, fields: AuditFields = {}): void {
  console.log(JSON.stringify({ audit: true, event, at: new Date().toISOString(), ...fields }));
}
