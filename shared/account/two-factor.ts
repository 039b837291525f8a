import { z } from "zod";

/**
 * Two-factor authentication's API shapes (Settings -> Security, and the second step of /login).
 * docs/decisions/0021-security-second-round.md.
 */

/** What a sign-in answers: a session, or a challenge to answer with a code first. */
export type SignInAnswer = { token: string } | { secondFactor: { challenge: string } };

/** A six-digit code from the authenticator app, or one of the recovery codes. */
export const codeField = z.string({ required_error: "Required" }).trim().min(1, "Required").max(40, "Too long");

/** POST api/signin/second-factor */
export const secondFactorSchema = z.object({ challenge: z.string().min(1).max(200), code: codeField });

/** POST api/account/two-factor/setup and .../disable: the password proves it is the owner. */
export const confirmPasswordSchema = z.object({
  password: z.string({ required_error: "Required" }).min(1, "Required").max(1024),
});

/** POST api/account/two-factor/disable: the password and a code from the app or a recovery code (issue 34). */
export const disableTwoFactorSchema = z.object({
  password: z.string({ required_error: "Required" }).min(1, "Required").max(1024),
  code: codeField,
});

/** POST api/account/two-factor/enable: a code from the app proves it holds the key. */
export const enableTwoFactorSchema = z.object({ code: codeField });

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

export interface TwoFactorSetup {
  /** The key in base32, for typing into an app. */
  secret: string;
  /** otpauth:// URI with the key, for an app that reads one. */
  uri: string;
}

export interface TwoFactorEnabled {
  /** Shown once: only their hashes are kept. */
  recoveryCodes: string[];
}
