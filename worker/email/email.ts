import type { Config } from "../env";
import type { Db } from "../../db/client";
import { emailOutbox } from "../../db/schema";

export interface Email {
  to: string;
  subject: string;
  text: string;
  /** Resend's Idempotency-Key: a retried send of the same e-mail is delivered once (alert delivery). */
  idempotencyKey?: string;
  /** Headers of the message itself (List-Unsubscribe, RFC 2369 and 8058). */
  headers?: Record<string, string>;
}

/**
 * Sends e-mail through the configured provider: Resend over HTTP in production, or the outbox
 * (a D1 table, also printed to the console) in development and tests, so password reset works
 * offline end to end. Answers the provider's id of the message (Resend's `id`; `outbox:<row>` in
 * the outbox), which its delivery events name (worker/email/resend-events.ts).
 */
export async function sendEmail(db: Db, config: Config, email: Email): Promise<string> {
  if (config.EMAIL_PROVIDER === "outbox") {
    const row = await db
      .insert(emailOutbox)
      .values({ to: email.to, subject: email.subject, text: email.text, headers: email.headers ?? null })
      .returning({ id: emailOutbox.id })
      .get();
    console.log(`[outbox] to ${email.to}: ${email.subject}\n${email.text}`);
    return `outbox:${row.id}`;
  }
  const res = await fetch("https://api.resend.com/emails", {
    method: "POST",
    headers: {
      Authorization: `Bearer ${config.EMAIL_API_KEY}`,
      "Content-Type": "application/json",
      ...(email.idempotencyKey ? { "Idempotency-Key": email.idempotencyKey } : {}),
    },
    body: JSON.stringify({
      from: config.EMAIL_FROM,
      to: [email.to],
      subject: email.subject,
      text: email.text,
      ...(email.headers ? { headers: email.headers } : {}),
    }),
  });
  if (!res.ok) throw new Error(`e-mail provider answered ${res.status}: ${await res.text()}`);
  const answer = (await res.json().catch(() => ({}))) as { id?: unknown };
  return typeof answer.id === "string" ? answer.id : "";
}
