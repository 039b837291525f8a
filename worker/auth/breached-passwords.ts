import { BREACHED_FILTER } from "./breached-filter.generated";
import { bloomHas } from "./bloom-filter";

/**
 * Whether a password is in the breached-password list shipped with the app (ASVS V2.1.7): 43,940
 * leaked passwords of 12 or more characters from OWASP SecLists, as a Bloom filter built by
 * scripts/build-breached-filter.ts. No network call, nothing about the password leaves the Worker.
 * False positives: about one in a million passwords not in the list.
 */
export async function isBreachedPassword(password: string): Promise<boolean> {
  return bloomHas(filterBytes(), BREACHED_FILTER, password.toLowerCase());
}

let bytes: Uint8Array | null = null;
/** Decoded on first use per isolate (about a millisecond), not at start-up. */
function filterBytes(): Uint8Array {
  bytes ??= Uint8Array.from(atob(BREACHED_FILTER.base64), (c) => c.charCodeAt(0));
  return bytes;
}
