import { base64url, timingSafeEqual } from "../lib/crypto";

/**
 * PBKDF2-SHA256 through WebCrypto (what Workers run natively). workerd caps PBKDF2 at 100,000
 * iterations, so that is the cost; the stored string names algorithm, iterations and salt, so a
 * later, stronger setting can verify old hashes and rehash on the next sign-in.
 *   pbkdf2-sha256$100000$<salt>$<hash>   (salt and hash base64url)
 */
export const PBKDF2_ITERATIONS = 100_000;
const KEY_BYTES = 32;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    KEY_BYTES * 8,
  );
  return new Uint8Array(bits);
}

function fromBase64url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${base64url(salt)}$${base64url(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, iterations, salt, hash] = stored.split("$");
  if (algorithm !== "pbkdf2-sha256" || !iterations || !salt || !hash) return false;
  const expected = fromBase64url(hash);
  const actual = await derive(password, fromBase64url(salt), Number(iterations));
  return timingSafeEqual(actual, expected);
}

/** A hash of a random password, checked when the e-mail is unknown so timing does not tell. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomUUID());
  return decoy;
}
