import { z } from "zod";
import { timingSafeEqual } from "../lib/crypto";

/**
 * Resend's webhook events (its "Verify webhooks" page): each request is signed the Svix way, an
 * HMAC-SHA256 under the base64 secret after `whsec_` of `{svix-id}.{svix-timestamp}.{body}`, sent
 * as one or more `v1,<base64>` in `svix-signature`. Checked here with WebCrypto rather than the
 * Svix SDK, whose whole client would come along for these few lines.
 */
export const SIGNATURE_TOLERANCE_S = 5 * 60;

export interface SvixHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

/** Whether `body` was signed with `secret` within the tolerance of `nowMs` (a replay older is refused). */
export async function resendSignatureValid(
  secret: string,
  headers: SvixHeaders,
  body: string,
  nowMs = Date.now(),
): Promise<boolean> {
  const { id, timestamp, signature } = headers;
  if (!secret.startsWith("whsec_") || !id || !timestamp || !signature) return false;
  const sentS = Number(timestamp);
  if (!Number.isInteger(sentS) || Math.abs(nowMs / 1000 - sentS) > SIGNATURE_TOLERANCE_S) return false;
  let keyBytes: Uint8Array;
  try {
    keyBytes = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  } catch {
    return false;
  }
  const text = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, text.encode(`${id}.${timestamp}.${body}`)));
  const expected = text.encode(btoa(String.fromCharCode(...mac)));
  return signature
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .some((s) => timingSafeEqual(text.encode(s.slice(3)), expected));
}

/** The fields of an event this reads (Resend sends more). */
export const resendEventSchema = z.object({
  type: z.string().max(64),
  data: z.object({ email_id: z.string().min(1).max(128), to: z.array(z.string().max(320)).max(50).optional() }),
});
export type ResendEvent = z.infer<typeof resendEventSchema>;
