import { z } from "zod";

/** base64url without padding, as PushSubscription.toJSON() gives keys. */
const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "Use base64url")
    .refine((s) => Math.floor((s.length * 6) / 8) === bytes, `Must encode ${bytes} bytes`);

/** A push service's address: https only (RFC 8030), a public name checked again by the server. */
export const pushEndpointSchema = z
  .string()
  .max(2048)
  .url()
  .refine((s) => s.startsWith("https://"), "A push endpoint must use https");

/** POST /api/push-subscriptions: what PushSubscription.toJSON() gives (DESIGN.md "The app on a phone"). */
export const pushSubscriptionSchema = z.object({
  endpoint: pushEndpointSchema,
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65),
    /** Its 16-byte authentication secret. */
    auth: base64url(16),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /api/push-subscriptions. */
export const pushUnsubscribeSchema = z.object({ endpoint: pushEndpointSchema });

/** GET /api/push/public-key: the VAPID public key browsers subscribe with (base64url, 65 bytes). */
export const pushPublicKeySchema = z.object({ key: z.string() });

/** What a push carries to the service worker, which shows it as a notification. */
export interface PushNotice {
  title: string;
  body: string;
  /** The page a tap opens (same origin). */
  url: string;
  /** Notices with one tag replace each other (one per issue, one per alert). */
  tag: string;
}
