import { decodeIdToken, Google } from "arctic";
import { and, eq, isNull, lt } from "drizzle-orm";
import { z } from "zod";
import { markConfirmed } from "./email-confirmation";
import type { Db } from "../../db/client";
import {
  oauthAccounts,
  oauthStates,
  passwordCredentials,
  recoveryCodes,
  sessions,
  totpCredentials,
  users,
} from "../../db/schema";
import type { Config } from "../env";
import { audit } from "../lib/audit";
import { ApiError } from "../lib/errors";
import { isUniqueViolation } from "./users";

/**
 * Google sign-in (OpenID Connect authorisation code flow with PKCE, through Arctic). The state
 * and PKCE verifier live in D1 for ten minutes, single use, and the state is also bound to the
 * browser that asked for it with an HttpOnly cookie, so a code obtained by someone else cannot be
 * replayed into a victim's browser (login CSRF).
 */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
export const GOOGLE_SCOPES = ["openid", "email", "profile"];

/** Providers this server can actually sign in with; the UI also names Jobber and Facebook. */
export const SERVER_PROVIDERS = ["google"] as const;
export type ServerProvider = (typeof SERVER_PROVIDERS)[number];

export function redirectUri(config: Config, provider: ServerProvider) {
  return new URL(`/oauth/${provider}`, config.APP_URL).href;
}

export function googleClient(config: Config): Google {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) {
    throw new ApiError(404, "oauth_not_configured", "Google sign-in is not configured on this server");
  }
  return new Google(config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET, redirectUri(config, "google"));
}

/** Remembers a new state and its PKCE verifier; expired ones are swept on the way. */
export async function saveState(db: Db, provider: ServerProvider, state: string, codeVerifier: string) {
  const now = Date.now();
  await db.batch([
    db.delete(oauthStates).where(lt(oauthStates.expiresAt, now)),
    db.insert(oauthStates).values({ state, provider, codeVerifier, expiresAt: now + OAUTH_STATE_TTL_MS }),
  ]);
}

/** Takes a state out of D1 (so it works once) and answers its PKCE verifier if it is still live. */
export async function consumeState(db: Db, provider: ServerProvider, state: string): Promise<string> {
  const row = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.provider, provider)))
    .returning()
    .get();
  if (!row || row.expiresAt <= Date.now()) throw invalidState();
  return row.codeVerifier;
}

export const invalidState = () =>
  new ApiError(400, "oauth_state_invalid", "This sign-in link has expired or was already used. Start again.");

/** The claims we rely on. The ID token came straight from Google's token endpoint over TLS, so
 * (OpenID Connect Core 3.1.3.7) its issuer, audience and expiry are checked, not its signature. */
const googleClaimsSchema = z.object({
  iss: z.enum(["https://accounts.google.com", "accounts.google.com"]),
  aud: z.union([z.string(), z.array(z.string())]),
  sub: z.string().min(1).max(255),
  exp: z.number(),
  email: z.string().email().max(254),
  email_verified: z.boolean().optional(),
});

export interface OAuthProfile {
  providerUserId: string;
  email: string;
  emailVerified: boolean;
}

export function googleProfile(idToken: string, clientId: string): OAuthProfile {
  let claims: z.infer<typeof googleClaimsSchema>;
  try {
    claims = googleClaimsSchema.parse(decodeIdToken(idToken));
  } catch {
    throw idTokenInvalid();
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(clientId) || claims.exp * 1000 <= Date.now()) throw idTokenInvalid();
  return {
    providerUserId: claims.sub,
    email: claims.email.toLowerCase(),
    emailVerified: claims.email_verified === true,
  };
}

const idTokenInvalid = () => new ApiError(400, "oauth_id_token_invalid", "Google's answer could not be verified");

/**
 * The user an OAuth identity signs in as: the one already linked to it; else the account with the
 * same e-mail, linked now, but only if the provider verified that e-mail; else a new user.
 */
/** Who signs in, whether Google was just linked to them, and the sessions a takeover revoked. */
export interface OAuthOutcome {
  userId: string;
  linked: boolean;
  revoked: { tokenHash: string; userId: string; workspaceId: string | null }[];
}

export async function userForOAuth(db: Db, provider: ServerProvider, profile: OAuthProfile): Promise<OAuthOutcome> {
  const linked = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerUserId, profile.providerUserId)))
    .get();
  if (linked) return { userId: linked.userId, linked: false, revoked: [] };

  if (!profile.emailVerified) {
    throw new ApiError(403, "oauth_email_unverified", "Your Google account's e-mail address is not verified");
  }

  const existing = await db.select().from(users).where(eq(users.email, profile.email)).get();
  if (existing) return linkToExisting(db, provider, profile, existing);

  const id = crypto.randomUUID();
  try {
    await db.batch([
      db.insert(users).values({ id, email: profile.email, emailVerified: true, emailConfirmedAt: Date.now() }),
      db.insert(oauthAccounts).values({ provider, providerUserId: profile.providerUserId, userId: id }),
    ]);
  } catch (error) {
    // Two sign-ins of the same new person at once: the other one created the user.
    if (isUniqueViolation(error)) return userForOAuth(db, provider, profile);
    throw error;
  }
  audit("oauth.linked", { userId: id, provider, new_account: true });
  return { userId: id, linked: false, revoked: [] };
}

/** Google's verified address matches an account: link it, taking the address over if unconfirmed. */
async function linkToExisting(
  db: Db,
  provider: ServerProvider,
  profile: OAuthProfile,
  existing: typeof users.$inferSelect,
): Promise<OAuthOutcome> {
  const link = db
    .insert(oauthAccounts)
    .values({ provider, providerUserId: profile.providerUserId, userId: existing.id });
  let revoked: OAuthOutcome["revoked"] = [];
  if (existing.emailVerified) {
    // Google vouches for the address: it counts as confirmed (issue 39).
    await db.batch([link, markConfirmed(db, existing.id)]);
  } else {
    // Nobody had proven owning this address before: whoever registered it may not be its owner
    // (pre-account takeover). The owner now proves it, so the password someone else may have set
    // is dropped and its sessions end; the owner can set a password again with "Forgot password".
    const now = Date.now();
    const [, , , ended] = await db.batch([
      link,
      markConfirmed(db, existing.id),
      db.delete(passwordCredentials).where(eq(passwordCredentials.userId, existing.id)),
      db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, existing.id), isNull(sessions.revokedAt)))
        .returning({ tokenHash: sessions.tokenHash, userId: sessions.userId, workspaceId: sessions.workspaceId }),
      // and so are the second factors that holder set (issue 34): the owner would otherwise be
      // asked for a code from the other person's app
      db.delete(totpCredentials).where(eq(totpCredentials.userId, existing.id)),
      db.delete(recoveryCodes).where(eq(recoveryCodes.userId, existing.id)),
    ]);
    // The caller tells the rooms (worker/auth/end-sessions.ts announceEnded) and audits it.
    revoked = ended;
  }
  audit("oauth.linked", { userId: existing.id, provider, dropped_password: !existing.emailVerified });
  return { userId: existing.id, linked: true, revoked };
}
