import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhookSecrets } from "../../db/schema";

/**
 * Each workspace's webhook signing secret (docs/decisions/0024): `whsec_` + 32 random bytes as
 * base64, the Standard Webhooks form, so receivers can verify with that spec's libraries. It is
 * stored sealed (AES-256-GCM under the Worker secret WEBHOOK_SECRET_KEY, the workspace id as
 * associated data), so a copy of D1 alone does not hand it out, nor can a sealed value be moved
 * to another workspace's row. Only owners and admins see or rotate it (worker/api/route-rules.ts).
 */
export const SECRET_PREFIX = "whsec_";

export interface WebhookSecret {
  secret: string;
  createdAt: number;
}

async function sealingKey(keyBase64: string): Promise<CryptoKey> {
  const raw = decodeBase64(keyBase64);
  if (raw.length !== 32) throw new Error("WEBHOOK_SECRET_KEY must be 32 bytes as base64");
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** AES-256-GCM under WEBHOOK_SECRET_KEY, bound to `workspaceId` (any owner id: TOTP secrets use `totp:<userId>`). */
export async function seal(keyBase64: string, workspaceId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(secret);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(workspaceId) },
    await sealingKey(keyBase64),
    data,
  );
  return `${encodeBase64(iv)}.${encodeBase64(new Uint8Array(sealed))}`;
}

export async function unseal(keyBase64: string, workspaceId: string, sealed: string): Promise<string> {
  const [iv, data] = sealed.split(".");
  const opened = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: decodeBase64(iv!), additionalData: new TextEncoder().encode(workspaceId) },
    await sealingKey(keyBase64),
    decodeBase64(data!),
  );
  return new TextDecoder().decode(opened);
}

const newSecret = () => SECRET_PREFIX + encodeBase64(crypto.getRandomValues(new Uint8Array(32)));

/** The workspace's secret, made on first use (two first uses at once: the first write wins, both read it back). */
export async function webhookSecret(db: Db, keyBase64: string, workspaceId: string): Promise<WebhookSecret> {
  const row = await db.select().from(webhookSecrets).where(eq(webhookSecrets.workspaceId, workspaceId)).get();
  if (row) return { secret: await unseal(keyBase64, workspaceId, row.sealed), createdAt: row.createdAt };
  const sealed = await seal(keyBase64, workspaceId, newSecret());
  await db.insert(webhookSecrets).values({ workspaceId, sealed, createdAt: Date.now() }).onConflictDoNothing();
  return webhookSecret(db, keyBase64, workspaceId);
}

/** A new secret replaces the old at once: deliveries signed from now on use it. */
export async function rotateWebhookSecret(db: Db, keyBase64: string, workspaceId: string): Promise<WebhookSecret> {
  const secret = newSecret();
  const createdAt = Date.now();
  const sealed = await seal(keyBase64, workspaceId, secret);
  await db
    .insert(webhookSecrets)
    .values({ workspaceId, sealed, createdAt })
    .onConflictDoUpdate({ target: webhookSecrets.workspaceId, set: { sealed, createdAt } });
  return { secret, createdAt };
}
