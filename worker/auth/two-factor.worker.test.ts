import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { call } from "../test/factories";
import { stepAt } from "./totp";
import { CHALLENGE_TRIES } from "./totp-signin";

/**
 * TOTP two-factor authentication through the API, as an authenticator app and a browser use it:
 * turned on with the password and a code, then asked at every sign-in; recovery codes work once;
 * a code is never accepted twice; a challenge dies after its tries; turned off with the password.
 */
type Json = Record<string, unknown> & { token?: string; error?: { code: string; fields?: Record<string, string[]> } };
const PASSWORD = "correct horse battery";
const email = () => `tfa-${crypto.randomUUID().slice(0, 8)}@example.com`;
const post = async (path: string, json: unknown, token?: string) => {
  const res = await call(path, {
    method: "POST",
    json,
    token,
    headers: { "CF-Connecting-IP": `10.9.${Math.floor(Math.random() * 255)}.1` },
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const codeAt = (secret: string, step: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);

async function accountWithTwoFactor() {
  const address = email();
  const token = (await post("/api/signup", { email: address, password: PASSWORD })).body.token!;
  const setup = await post("/api/account/two-factor/setup", { password: PASSWORD }, token);
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/Fleet%20Ops:.*secret=/);
  const enabled = await post("/api/account/two-factor/enable", { code: codeAt(secret, stepAt(Date.now())) }, token);
  expect(enabled.status).toBe(200);
  return { email: address, token, secret, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

async function challengeFor(address: string) {
  const signin = await post("/api/signin", { email: address, password: PASSWORD });
  expect(signin.status).toBe(200);
  expect(signin.body.token).toBeUndefined();
  return (signin.body.secondFactor as { challenge: string }).challenge;
}

describe("two-factor authentication", () => {
  it("is off until a code from the app confirms the key, then every sign-in asks for a code", async () => {
    const address = email();
    const token = (await post("/api/signup", { email: address, password: PASSWORD })).body.token!;
    expect(await (await call("/api/account/two-factor", { token })).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const setup = await post("/api/account/two-factor/setup", { password: PASSWORD }, token);
    // Set up but not confirmed: a sign-in still needs no code.
    expect((await post("/api/signin", { email: address, password: PASSWORD })).body.token).toEqual(expect.any(String));
    const wrong = await post("/api/account/two-factor/enable", { code: "000000" }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.fields?.code).toBeDefined();
    const secret = setup.body.secret as string;
    const enabled = await post("/api/account/two-factor/enable", { code: codeAt(secret, stepAt(Date.now())) }, token);
    expect((enabled.body.recoveryCodes as string[]).length).toBe(10);
    expect(await (await call("/api/account/two-factor", { token })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    const challenge = await challengeFor(address);
    const signedIn = await post("/api/signin/second-factor", {
      challenge,
      code: codeAt(secret, stepAt(Date.now()) + 1),
    });
    expect(signedIn.status).toBe(200);
    expect((await call("/api/me", { token: signedIn.body.token })).status).toBe(200);
  });

  it("refuses the setup without the right password", async () => {
    const token = (await post("/api/signup", { email: email(), password: PASSWORD })).body.token!;
    const res = await post("/api/account/two-factor/setup", { password: "not the password" }, token);
    expect(res.status).toBe(400);
    expect(res.body.error?.fields?.password).toEqual(["Wrong password"]);
  });

  it("never accepts the same code twice, nor one from minutes ago", async () => {
    const account = await accountWithTwoFactor();
    const now = stepAt(Date.now());
    // The code of `now` confirmed the key: it is used.
    expect(
      (
        await post("/api/signin/second-factor", {
          challenge: await challengeFor(account.email),
          code: codeAt(account.secret, now),
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await post("/api/signin/second-factor", {
          challenge: await challengeFor(account.email),
          code: codeAt(account.secret, now - 10),
        })
      ).status,
    ).toBe(401);
    const next = codeAt(account.secret, now + 1);
    expect(
      (await post("/api/signin/second-factor", { challenge: await challengeFor(account.email), code: next })).status,
    ).toBe(200);
    expect(
      (await post("/api/signin/second-factor", { challenge: await challengeFor(account.email), code: next })).status,
    ).toBe(401);
  });

  it("takes each recovery code once, in any case and spacing", async () => {
    const account = await accountWithTwoFactor();
    const code = account.recoveryCodes[3]!;
    const first = await post("/api/signin/second-factor", {
      challenge: await challengeFor(account.email),
      code: ` ${code.toUpperCase()} `,
    });
    expect(first.status).toBe(200);
    const again = await post("/api/signin/second-factor", { challenge: await challengeFor(account.email), code });
    expect(again.status).toBe(401);
    expect(again.body.error?.code).toBe("invalid_code");
    expect(await (await call("/api/account/two-factor", { token: first.body.token })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 9,
    });
  });

  it("lets a challenge be tried five times, then it is dead even with the right code", async () => {
    const account = await accountWithTwoFactor();
    const challenge = await challengeFor(account.email);
    const tries = await Promise.all(
      Array.from({ length: CHALLENGE_TRIES + 3 }, () =>
        post("/api/signin/second-factor", { challenge, code: "123456" }),
      ),
    );
    expect(tries.filter((t) => t.body.error?.code === "invalid_code")).toHaveLength(CHALLENGE_TRIES);
    expect(tries.filter((t) => t.body.error?.code === "challenge_expired")).toHaveLength(3);
    const right = await post("/api/signin/second-factor", {
      challenge,
      code: codeAt(account.secret, stepAt(Date.now()) + 1),
    });
    expect(right.body.error?.code).toBe("challenge_expired");
  });

  it("a challenge is not a session, and a made-up one is refused", async () => {
    const account = await accountWithTwoFactor();
    const challenge = await challengeFor(account.email);
    expect((await call("/api/me", { token: challenge })).status).toBe(401);
    expect((await post("/api/signin/second-factor", { challenge: "made-up", code: "123456" })).body.error?.code).toBe(
      "challenge_expired",
    );
  });

  it("is turned off with the password and a second factor (issue 34), and sign-in asks for no code again", async () => {
    const account = await accountWithTwoFactor();
    expect(
      (
        await post(
          "/api/account/two-factor/disable",
          { password: "wrong password here", code: account.recoveryCodes[0] },
          account.token,
        )
      ).status,
    ).toBe(400);
    // the password alone (a stolen session plus a phished password) is not enough
    const passwordOnly = await post("/api/account/two-factor/disable", { password: PASSWORD }, account.token);
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body.error?.fields).toHaveProperty("code");
    expect(
      (await post("/api/account/two-factor/disable", { password: PASSWORD, code: "000000" }, account.token)).status,
    ).toBe(400);
    expect(
      (
        await post(
          "/api/account/two-factor/disable",
          { password: PASSWORD, code: account.recoveryCodes[0] },
          account.token,
        )
      ).status,
    ).toBe(200);
    expect((await post("/api/signin", { email: account.email, password: PASSWORD })).body.token).toEqual(
      expect.any(String),
    );
  });

  it("turned on or off ends the account's other sessions and keeps this one (issue 34)", async () => {
    const address = email();
    const token = (await post("/api/signup", { email: address, password: PASSWORD })).body.token!;
    const other = (await post("/api/signin", { email: address, password: PASSWORD })).body.token!;
    const secret = (await post("/api/account/two-factor/setup", { password: PASSWORD }, token)).body.secret as string;
    const enabled = await post("/api/account/two-factor/enable", { code: codeAt(secret, stepAt(Date.now())) }, token);
    expect(enabled.status).toBe(200);
    expect((await call("/api/me", { token: other })).status).toBe(401);
    expect((await call("/api/me", { token })).status).toBe(200);

    const challenge = await challengeFor(address);
    const third = (
      await post("/api/signin/second-factor", { challenge, code: (enabled.body.recoveryCodes as string[])[0] })
    ).body.token!;
    expect((await call("/api/me", { token: third })).status).toBe(200);
    expect(
      (
        await post(
          "/api/account/two-factor/disable",
          { password: PASSWORD, code: (enabled.body.recoveryCodes as string[])[1] },
          token,
        )
      ).status,
    ).toBe(200);
    expect((await call("/api/me", { token: third })).status).toBe(401);
    expect((await call("/api/me", { token })).status).toBe(200);
  });
});
