import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { SECRET_PREFIX } from "./webhook-secret";

/**
 * Webhook signatures as the Standard Webhooks spec defines them (standardwebhooks.com), so a
 * receiver can verify with that spec's libraries or a few lines of its own:
 *   webhook-id:        the alert's id (the same on every retry: dedupe on it)
 *   webhook-timestamp: Unix seconds when this attempt was signed (refuse ones over 5 min old)
 *   webhook-signature: `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), where key
 *                      is the base64 part of the workspace's `whsec_...` secret, decoded.
 * Signing the id and the timestamp with the body stops a captured request from being replayed
 * later or under another id.
 */
export const SIGNATURE_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    decodeBase64(secret.slice(SECRET_PREFIX.length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${encodeBase64(new Uint8Array(mac))}`;
}
