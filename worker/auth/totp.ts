import {
  decodeBase32IgnorePadding,
  encodeBase32LowerCaseNoPadding,
  encodeBase32UpperCaseNoPadding,
} from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { timingSafeEqual } from "../lib/crypto";

/**
 * TOTP (RFC 6238) as authenticator apps do it: 30-second steps, 6 digits, HMAC-SHA1, a 160-bit key.
 * `@oslojs/otp` computes the codes; what is ours is which steps count (one either side of now, for
 * clock drift) and that a step once used never counts again (the replay guard the caller keeps).
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Fleet Ops";

export function newTotpSecret(): string {
  return encodeBase32UpperCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

/** The otpauth:// URI an authenticator app reads (from a QR code, or pasted). */
export function totpUri(secret: string, accountName: string): string {
  return createTOTPKeyURI(ISSUER, accountName, decodeBase32IgnorePadding(secret), TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

export const stepAt = (now: number) => Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The time step `code` is the code of, among the previous, current and next steps and only those
 * after `lastStep` (a code already used is refused); null when it matches none.
 */
export function matchingStep(secret: string, code: string, now: number, lastStep: number): number | null {
  const given = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(given)) return null;
  const key = decodeBase32IgnorePadding(secret);
  const encoder = new TextEncoder();
  for (const step of [stepAt(now) - 1, stepAt(now), stepAt(now) + 1]) {
    if (step <= lastStep) continue;
    if (timingSafeEqual(encoder.encode(generateHOTP(key, BigInt(step), TOTP_DIGITS)), encoder.encode(given)))
      return step;
  }
  return null;
}

/** Ten recovery codes like `k7f3-qm2p-x9wd`: 60 random bits each, easy to read out and type. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(8))).slice(0, 12);
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
  });
}

/** How a recovery code is compared (and hashed): case, dashes and spaces do not matter. */
export function normalRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** A six-digit authenticator code, or else a recovery code. */
export const looksLikeTotp = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));
