import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { LIMITS } from "../auth/rate-limit";
import { stepAt } from "../auth/totp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { database } from "../../db/client";
import { oauthAccounts, oauthStates, recoveryCodes, totpCredentials, users } from "../../db/schema";
import { setFlag } from "../flags";
import { base64url } from "../lib/crypto";
import worker from "../test-entry";
import { call } from "../test/factories";

/**
 * Google sign-in end to end through the real Worker and D1, with only Google itself faked: its
 * token endpoint is answered at the fetch boundary by FakeGoogle, which checks what the real one
 * checks (client credentials, redirect URI, single-use code, PKCE verifier against the challenge
 * of the authorisation URL) and answers an ID token with the claims a test chose.
 */
const CLIENT_ID = "fleet-ops-test.apps.googleusercontent.com";
const CLIENT_SECRET = "test-client-secret";
const googleEnv = { ...env, GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET };

type Json = Record<string, unknown> & { error?: { code: string; message: string } };
const json = async (res: Response) => (await res.json()) as Json;
const fromIp = () => ({
  "CF-Connecting-IP": `10.2.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});
const newEmail = () => `g-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** The Worker with Google configured (the default test configuration has no Google client). */
async function callWithGoogle(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
  const { json: payload, cookie, ...rest } = init;
  const headers = new Headers({ ...fromIp(), ...(rest.headers as Record<string, string>) });
  if (payload !== undefined) headers.set("Content-Type", "application/json");
  if (cookie) headers.set("Cookie", cookie);
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://localhost${path}`, {
      ...rest,
      headers,
      body: payload !== undefined ? JSON.stringify(payload) : rest.body,
    }),
    googleEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

interface Claims {
  sub: string;
  email: string;
  email_verified?: boolean;
  aud?: string;
  iss?: string;
}

const encodeJson = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

class FakeGoogle {
  private codes = new Map<string, { challenge: string; redirectUri: string; claims: Claims }>();
  tokenRequests = 0;

  /** The person signs in at Google, which redirects back with a code for the state it was given. */
  consent(authorizationUrl: string, claims: Claims) {
    const url = new URL(authorizationUrl);
    const code = `code-${crypto.randomUUID()}`;
    this.codes.set(code, {
      challenge: url.searchParams.get("code_challenge")!,
      redirectUri: url.searchParams.get("redirect_uri")!,
      claims,
    });
    return { code, state: url.searchParams.get("state")! };
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url !== "https://oauth2.googleapis.com/token") throw new Error(`unexpected fetch ${request.url}`);
    this.tokenRequests++;
    const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
    const fail = (error: string) => Response.json({ error }, { status: 400 });
    if (request.headers.get("Authorization") !== `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`) {
      return Response.json({ error: "invalid_client" }, { status: 401 });
    }
    const grant = this.codes.get(form.get("code") ?? "");
    this.codes.delete(form.get("code") ?? "");
    if (form.get("grant_type") !== "authorization_code" || !grant) return fail("invalid_grant");
    if (form.get("redirect_uri") !== grant.redirectUri) return fail("redirect_uri_mismatch");
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(form.get("code_verifier") ?? "")),
    );
    if (base64url(digest) !== grant.challenge) return fail("invalid_grant");
    const now = Math.floor(Date.now() / 1000);
    const idToken = [
      encodeJson({ alg: "RS256", kid: "test", typ: "JWT" }),
      encodeJson({ iss: "https://accounts.google.com", aud: CLIENT_ID, iat: now, exp: now + 3600, ...grant.claims }),
      base64url(new TextEncoder().encode("signature")),
    ].join(".");
    return Response.json({
      access_token: "ya29.test",
      expires_in: 3599,
      token_type: "Bearer",
      scope: "openid email profile",
      id_token: idToken,
    });
  };
}

let google: FakeGoogle;
beforeEach(() => {
  google = new FakeGoogle();
  vi.spyOn(globalThis, "fetch").mockImplementation(google.fetch);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** GET api/oauth/google/url: the address and the state cookie the browser keeps. */
async function start() {
  const res = await callWithGoogle("/api/oauth/google/url");
  expect(res.status).toBe(200);
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  return { authorizationUrl: (await json(res)).authorizationUrl as string, cookie };
}

/** The whole round trip: start, consent at Google, the app's token call. */
async function signInWithGoogle(claims: Claims) {
  const { authorizationUrl, cookie } = await start();
  const { code, state } = google.consent(authorizationUrl, claims);
  const res = await callWithGoogle("/api/oauth/google/token", { method: "POST", cookie, json: { code, state } });
  return { res, code, state, cookie };
}

async function tokenOf(res: Response) {
  expect(res.status).toBe(200);
  return (await json(res)).token as string;
}

async function signUp(email: string, password = "correct horse battery") {
  const res = await call("/api/signup", { method: "POST", headers: fromIp(), json: { email, password } });
  expect(res.status).toBe(201);
  return (await json(res)).token as string;
}

const signIn = (email: string, password: string) =>
  call("/api/signin", { method: "POST", headers: fromIp(), json: { email, password } });

describe("Google authorisation address", () => {
  it("names our client and redirect address, with a state and an S256 PKCE challenge", async () => {
    const { authorizationUrl, cookie } = await start();
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(url.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(url.searchParams.get("redirect_uri")).toBe(`${env.APP_URL}/oauth/google`);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email"]));
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const state = url.searchParams.get("state")!;
    expect(state.length).toBeGreaterThanOrEqual(20);
    // The state is kept server-side with its verifier, and bound to this browser by a cookie.
    const row = await database(env.DB).select().from(oauthStates).where(eq(oauthStates.state, state)).get();
    expect(row?.expiresAt).toBeGreaterThan(Date.now());
    const verifierHash = base64url(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(row!.codeVerifier))),
    );
    expect(verifierHash).toBe(url.searchParams.get("code_challenge"));
    expect(cookie).toBe(`oauth_state=${state}`);
  });

  it("gives every request its own state", async () => {
    const a = new URL((await start()).authorizationUrl).searchParams;
    const b = new URL((await start()).authorizationUrl).searchParams;
    expect(a.get("state")).not.toBe(b.get("state"));
    expect(a.get("code_challenge")).not.toBe(b.get("code_challenge"));
  });
});

describe("Google sign-in", () => {
  it("creates a new user for a new verified Google account, with no workspace yet", async () => {
    const email = newEmail();
    const { res } = await signInWithGoogle({ sub: `sub-${crypto.randomUUID()}`, email, email_verified: true });
    const me = await json(await call("/api/me", { token: await tokenOf(res) }));
    expect(me.viewer).toMatchObject({ email });
    expect(me.workspace).toBeNull();
    const user = await database(env.DB).select().from(users).where(eq(users.email, email)).get();
    expect(user?.emailVerified).toBe(true);
    const link = await database(env.DB).select().from(oauthAccounts).where(eq(oauthAccounts.userId, user!.id)).get();
    expect(link?.provider).toBe("google");
  });

  it("signs a returning Google user into the same account and their first workspace", async () => {
    const sub = `sub-${crypto.randomUUID()}`;
    const first = await tokenOf((await signInWithGoogle({ sub, email: newEmail(), email_verified: true })).res);
    const { id: workspaceId } = await json(
      await call("/api/workspaces", { method: "POST", token: first, json: { name: "Google Fleet" } }),
    );
    // Same Google account, even if its address changed since.
    const again = await tokenOf((await signInWithGoogle({ sub, email: newEmail(), email_verified: true })).res);
    const me = await json(await call("/api/me", { token: again }));
    expect(me.workspace).toMatchObject({ id: workspaceId });
    expect((await json(await call("/api/me", { token: first }))).viewer).toEqual(me.viewer);
  });

  it("links to the existing account with the same verified e-mail", async () => {
    const email = newEmail();
    const passwordSession = await signUp(email);
    const existing = await json(await call("/api/me", { token: passwordSession }));
    const sub = `sub-${crypto.randomUUID()}`;
    const { res } = await signInWithGoogle({ sub, email: email.toUpperCase(), email_verified: true });
    const me = await json(await call("/api/me", { token: await tokenOf(res) }));
    // The same account, its address now confirmed by Google (issue 39).
    expect(me.viewer).toEqual({ ...(existing.viewer as object), emailConfirmed: true });
    const accounts = await database(env.DB).select().from(users).where(eq(users.email, email)).all();
    expect(accounts).toHaveLength(1);
    // ASVS V2.5.5: a new way into the account is told to its owner, once.
    const notices = await env.DB.prepare("SELECT subject FROM email_outbox WHERE `to` = ? AND subject = ?")
      .bind(email, "Google sign-in was linked to your Fleet Ops account")
      .all();
    expect(notices.results).toHaveLength(1);
    // Signing in with the linked Google account again links nothing new, so mails nothing.
    await tokenOf((await signInWithGoogle({ sub, email, email_verified: true })).res);
    const again = await env.DB.prepare("SELECT subject FROM email_outbox WHERE `to` = ? AND subject = ?")
      .bind(email, "Google sign-in was linked to your Fleet Ops account")
      .all();
    expect(again.results).toHaveLength(1);
  });

  it("asks an account with two-factor authentication for its code after Google too", async () => {
    const email = newEmail();
    const token = await signUp(email);
    await database(env.DB).update(users).set({ emailVerified: true }).where(eq(users.email, email));
    const setup = await json(
      await call("/api/account/two-factor/setup", {
        method: "POST",
        token,
        headers: fromIp(),
        json: { password: "correct horse battery" },
      }),
    );
    const code = generateHOTP(decodeBase32IgnorePadding(setup.secret as string), BigInt(stepAt(Date.now())), 6);
    expect(
      (await call("/api/account/two-factor/enable", { method: "POST", token, headers: fromIp(), json: { code } }))
        .status,
    ).toBe(200);

    const { res } = await signInWithGoogle({ sub: `sub-${crypto.randomUUID()}`, email, email_verified: true });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.token).toBeUndefined();
    expect((body.secondFactor as { challenge?: string }).challenge).toEqual(expect.any(String));
  });

  it("on linking an address nobody had proven owning, drops the password set by whoever registered it", async () => {
    const email = newEmail();
    const squatter = await signUp(email, "squatter password");
    await tokenOf((await signInWithGoogle({ sub: `sub-${crypto.randomUUID()}`, email, email_verified: true })).res);
    expect((await call("/api/me", { token: squatter })).status).toBe(401);
    expect((await signIn(email, "squatter password")).status).toBe(401);
  });

  it("on linking an address nobody had proven owning, clears the second factor whoever registered it had set (issue 34)", async () => {
    const email = newEmail();
    const squatter = await signUp(email, "squatter password");
    const setup = await json(
      await call("/api/account/two-factor/setup", {
        method: "POST",
        token: squatter,
        headers: fromIp(),
        json: { password: "squatter password" },
      }),
    );
    const code = generateHOTP(decodeBase32IgnorePadding(setup.secret as string), BigInt(stepAt(Date.now())), 6);
    expect(
      (
        await call("/api/account/two-factor/enable", {
          method: "POST",
          token: squatter,
          headers: fromIp(),
          json: { code },
        })
      ).status,
    ).toBe(200);
    const { id: userId } = (await database(env.DB)
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email))
      .get())!;
    expect(
      await database(env.DB).select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).all(),
    ).not.toEqual([]);

    // the owner is signed in at once: no code from the other person's app is asked
    const body = await json(
      (await signInWithGoogle({ sub: `sub-${crypto.randomUUID()}`, email, email_verified: true })).res,
    );
    expect(body.secondFactor).toBeUndefined();
    expect(body.token).toEqual(expect.any(String));
    expect(
      await database(env.DB).select().from(totpCredentials).where(eq(totpCredentials.userId, userId)).get(),
    ).toBeUndefined();
    expect(await database(env.DB).select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).all()).toEqual(
      [],
    );
  });

  it("keeps the password of an account whose owner already proved the address", async () => {
    const email = newEmail();
    await signUp(email, "old password 1");
    await database(env.DB).update(users).set({ emailVerified: true }).where(eq(users.email, email));
    await tokenOf((await signInWithGoogle({ sub: `sub-${crypto.randomUUID()}`, email, email_verified: true })).res);
    expect((await signIn(email, "old password 1")).status).toBe(200);
  });

  it("never links, or creates, an account for an e-mail Google has not verified", async () => {
    const email = newEmail();
    await signUp(email, "owner password 1");
    const sub = `sub-${crypto.randomUUID()}`;
    const { res } = await signInWithGoogle({ sub, email, email_verified: false });
    expect(res.status).toBe(403);
    expect((await json(res)).error?.code).toBe("oauth_email_unverified");
    const links = await database(env.DB)
      .select()
      .from(oauthAccounts)
      .where(eq(oauthAccounts.providerUserId, sub))
      .all();
    expect(links).toEqual([]);
    expect((await signIn(email, "owner password 1")).status).toBe(200);

    const stranger = newEmail();
    const unknown = await signInWithGoogle({ sub: `sub-${crypto.randomUUID()}`, email: stranger });
    expect(unknown.res.status).toBe(403);
    expect(await database(env.DB).select().from(users).where(eq(users.email, stranger)).get()).toBeUndefined();
  });
});

describe("Google sign-in refusals", () => {
  const claims = () => ({ sub: `sub-${crypto.randomUUID()}`, email: newEmail(), email_verified: true });

  it("refuses a state this browser was not given", async () => {
    const { authorizationUrl, cookie } = await start();
    const { code, state } = google.consent(authorizationUrl, claims());
    const other = await start();
    // Someone else's (valid) state and code, replayed into a browser holding another state.
    const res = await callWithGoogle("/api/oauth/google/token", {
      method: "POST",
      cookie: other.cookie,
      json: { code, state },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toBe("oauth_state_invalid");
    const noCookie = await callWithGoogle("/api/oauth/google/token", { method: "POST", json: { code, state } });
    expect(noCookie.status).toBe(400);
    expect(google.tokenRequests).toBe(0);
    // The rightful browser still completes.
    await tokenOf(await callWithGoogle("/api/oauth/google/token", { method: "POST", cookie, json: { code, state } }));
  });

  it("refuses a state the server never issued", async () => {
    const state = "made-up-state-0123456789";
    const res = await callWithGoogle("/api/oauth/google/token", {
      method: "POST",
      cookie: `oauth_state=${state}`,
      json: { code: "anything", state },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toBe("oauth_state_invalid");
  });

  it("refuses an expired state", async () => {
    const { authorizationUrl, cookie } = await start();
    const { code, state } = google.consent(authorizationUrl, claims());
    await database(env.DB)
      .update(oauthStates)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(oauthStates.state, state));
    const res = await callWithGoogle("/api/oauth/google/token", { method: "POST", cookie, json: { code, state } });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toBe("oauth_state_invalid");
    expect(google.tokenRequests).toBe(0);
  });

  it("refuses a state used once already", async () => {
    const { res, code, state, cookie } = await signInWithGoogle(claims());
    await tokenOf(res);
    const again = await callWithGoogle("/api/oauth/google/token", { method: "POST", cookie, json: { code, state } });
    expect(again.status).toBe(400);
    expect((await json(again)).error?.code).toBe("oauth_state_invalid");
    const left = await database(env.DB)
      .select()
      .from(oauthStates)
      .where(and(eq(oauthStates.state, state)))
      .get();
    expect(left).toBeUndefined();
  });

  it("answers a code Google rejects with 400", async () => {
    const { cookie, authorizationUrl } = await start();
    const state = new URL(authorizationUrl).searchParams.get("state")!;
    const res = await callWithGoogle("/api/oauth/google/token", {
      method: "POST",
      cookie,
      json: { code: "not-a-google-code", state },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toBe("oauth_code_rejected");
  });

  it("refuses an ID token issued for another application", async () => {
    const { res } = await signInWithGoogle({ ...claims(), aud: "someone-else.apps.googleusercontent.com" });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.code).toBe("oauth_id_token_invalid");
  });

  it("validates the token call's body", async () => {
    const { cookie } = await start();
    for (const payload of [{}, { code: "x" }, { code: 1, state: "y" }, { code: "x".repeat(5000), state: "y" }]) {
      const res = await callWithGoogle("/api/oauth/google/token", { method: "POST", cookie, json: payload });
      expect(res.status).toBe(400);
      expect((await json(res)).error?.code).toBe("invalid_input");
    }
  });
});

describe("providers and configuration", () => {
  it("answers 404 oauth_not_configured while Google has no client id and secret", async () => {
    const url = await call("/api/oauth/google/url");
    expect(url.status).toBe(404);
    expect((await json(url)).error?.code).toBe("oauth_not_configured");
    const token = await call("/api/oauth/google/token", { method: "POST", json: { code: "c", state: "s" } });
    expect(token.status).toBe(404);
    expect((await json(token)).error?.code).toBe("oauth_not_configured");
  });

  it("answers 404 for providers the server does not support", async () => {
    for (const provider of ["jobber", "facebook", "myspace"]) {
      const url = await callWithGoogle(`/api/oauth/${provider}/url`);
      expect(url.status).toBe(404);
      expect((await json(url)).error?.code).toBe("oauth_provider_unsupported");
      const token = await callWithGoogle(`/api/oauth/${provider}/token`, {
        method: "POST",
        json: { code: "c", state: "s" },
      });
      expect(token.status).toBe(404);
    }
  });

  it("is switched off by the global googleSignIn flag", async () => {
    const db = database(env.DB);
    await setFlag(db, "googleSignIn", false);
    try {
      const res = await callWithGoogle("/api/oauth/google/url");
      expect(res.status).toBe(404);
      expect((await json(res)).error?.code).toBe("oauth_disabled");
    } finally {
      await setFlag(db, "googleSignIn", true);
    }
  });

  it("rate limits sign-in attempts per IP with 429 JSON", async () => {
    const headers = fromIp();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.oauth.max; i++)
      statuses.push((await callWithGoogle("/api/oauth/google/url", { headers })).status);
    expect(statuses.slice(0, LIMITS.oauth.max).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
