import { ArcticFetchError, generateCodeVerifier, generateState, OAuth2RequestError } from "arctic";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { oauthTokenSchema } from "../../shared/account/auth";
import {
  consumeState,
  GOOGLE_SCOPES,
  googleClient,
  googleProfile,
  invalidState,
  OAUTH_STATE_TTL_MS,
  saveState,
  SERVER_PROVIDERS,
  userForOAuth,
} from "../auth/oauth";
import { LIMITS } from "../auth/rate-limit";
import { flagsFor } from "../flags";
import { timingSafeEqual } from "../lib/crypto";
import { announceEnded } from "../auth/end-sessions";
import { completeSignIn } from "../auth/complete-signin";
import { sendAccountNotice } from "../auth/notices";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared, perNetwork } from "./route-declaration/declare";

const STATE_COOKIE = "oauth_state";
const cookiePath = (provider: string) => `/api/oauth/${provider}`;

/** Sign-in with Google (docs/product.md section 7: api/oauth/google/url, then oauth/{provider}/token). */
export const oauthRoutes = new Hono<AppEnv>()
  // Only Google is wired on the server; any other name (Jobber, Facebook, typos) is a clear 404.
  .use("/:provider/*", async (c, next) => {
    const provider = c.req.param("provider");
    if (!(SERVER_PROVIDERS as readonly string[]).includes(provider ?? "")) {
      throw new ApiError(404, "oauth_provider_unsupported", `Sign-in with "${provider}" is not available`);
    }
    await next();
  })

  .get(
    "/:provider/url",
    declared({
      permission: "public",
      summary: "The provider's sign-in URL",
      tag: "Auth",
      limits: [perNetwork(LIMITS.oauth)],
    }),
    async (c) => {
      // The global googleSignIn flag is the kill switch (no workspace is known before sign-in).
      if ((await flagsFor(c.var.db, null)).googleSignIn === false) {
        throw new ApiError(404, "oauth_disabled", "Google sign-in is switched off");
      }
      const google = googleClient(c.var.config);
      const state = generateState();
      const codeVerifier = generateCodeVerifier();
      await saveState(c.var.db, "google", state, codeVerifier);
      setCookie(c, STATE_COOKIE, state, {
        path: cookiePath("google"),
        httpOnly: true,
        sameSite: "Lax",
        secure: new URL(c.var.config.APP_URL).protocol === "https:",
        maxAge: OAUTH_STATE_TTL_MS / 1000,
      });
      const authorizationUrl = google.createAuthorizationURL(state, codeVerifier, GOOGLE_SCOPES);
      authorizationUrl.searchParams.set("prompt", "select_account");
      return c.json({ authorizationUrl: authorizationUrl.href });
    },
  )

  .post(
    "/:provider/token",
    declared({
      permission: "public",
      summary: "Finish a sign-in with a provider",
      tag: "Auth",
      body: oauthTokenSchema,
      limits: [perNetwork(LIMITS.oauth)],
    }),
    async (c) => {
      const { code, state } = c.req.valid("json");
      const google = googleClient(c.var.config);
      // The state must be the one this browser was given, and still live in D1 (which it leaves now).
      const fromBrowser = getCookie(c, STATE_COOKIE) ?? "";
      deleteCookie(c, STATE_COOKIE, { path: cookiePath("google") });
      if (!sameString(fromBrowser, state)) throw invalidState();
      const codeVerifier = await consumeState(c.var.db, "google", state);

      const idToken = await exchange(c, () => google.validateAuthorizationCode(code, codeVerifier));
      const profile = googleProfile(idToken, c.var.config.GOOGLE_CLIENT_ID);
      const outcome = await userForOAuth(c.var.db, "google", profile);
      // A takeover of an unverified account revoked its sessions: their rooms close those sockets now.
      await announceEnded(c, outcome.revoked, "oauth_link_took_over_unverified_account");
      if (outcome.linked) await sendAccountNotice(c, outcome.userId, "google_linked");
      return c.json(await completeSignIn(c, outcome.userId, "google"));
    },
  );

/** Google's token call, its failures turned into answers the caller can act on. */
async function exchange(c: Context<AppEnv>, call: () => Promise<{ idToken(): string }>): Promise<string> {
  try {
    return (await call()).idToken();
  } catch (error) {
    if (error instanceof OAuth2RequestError) {
      throw new ApiError(400, "oauth_code_rejected", "Google did not accept this sign-in. Start again.");
    }
    console.error(`${c.req.path}: Google token exchange failed:`, error);
    if (error instanceof ArcticFetchError) {
      throw new ApiError(502, "oauth_provider_unreachable", "Google could not be reached. Try again.");
    }
    // An answer without an ID token, or not the shape OAuth promises.
    throw new ApiError(502, "oauth_provider_error", "Google answered unexpectedly. Try again.");
  }
}

function sameString(a: string, b: string) {
  const enc = new TextEncoder();
  return a.length > 0 && timingSafeEqual(enc.encode(a), enc.encode(b));
}
