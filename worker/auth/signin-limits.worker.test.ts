import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { call } from "../test/factories";
import { LIMITS } from "./rate-limit";

/**
 * Issue 23: limits that slow attackers and never lock out a user with the right password. Each
 * limit is taken before the password is checked, in one guarded statement, so guesses sent all at
 * once cannot pass it; checked passwords are counted by their `signin.failed` audit lines (one per
 * PBKDF2 run that failed).
 */
type Json = { token?: string; ok?: boolean; error?: { code: string } };
const email = () => `lim-${crypto.randomUUID().slice(0, 8)}@example.com`;
let octet = 1;
const freshIp = () => `10.${(octet >> 8) & 255}.${octet++ & 255}.${Math.floor(Math.random() * 250) + 1}`;
const post = (path: string, json: unknown, ip: string, token?: string) =>
  call(path, { method: "POST", headers: { "CF-Connecting-IP": ip, "User-Agent": "LimitsTest/1.0" }, json, token });
const STRONG = "correct horse battery";

let log: MockInstance<typeof console.log>;
beforeEach(() => {
  log = vi.spyOn(console, "log");
});
afterEach(() => log.mockRestore());
const audited = (event: string) =>
  log.mock.calls
    .map((args) => String(args[0]))
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.audit === true && e.event === event);

/** A user who signed up from `home` (so `home` is a network the account is known from). */
async function signUp(home = freshIp()) {
  const address = email();
  expect((await post("/api/signup", { email: address, password: STRONG }, home)).status).toBe(201);
  return { email: address, home };
}

const outboxCount = async (to: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM email_outbox WHERE `to` = ?").bind(to).first<{ n: number }>())?.n ??
  0;

describe("sign-in limits", () => {
  it("of 200 guesses sent at once from one network for one account, at most the limit are checked", async () => {
    const owner = await signUp();
    const attacker = freshIp();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post("/api/signin", { email: owner.email, password: `guess ${i}` }, attacker).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMITS.signinFailures.max);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(200 - LIMITS.signinFailures.max);
    expect(audited("signin.failed").length).toBeLessThanOrEqual(LIMITS.signinFailures.max);
    // The owner, from home, is not affected.
    expect((await post("/api/signin", { email: owner.email, password: STRONG }, owner.home)).status).toBe(200);
  }, 120_000);

  it("of 200 guesses at once from 200 networks for one account, at most the per-account limit are checked; the owner's network still signs in", async () => {
    const owner = await signUp();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post("/api/signin", { email: owner.email, password: `guess ${i}` }, freshIp()).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMITS.signinAccountFailures.max);
    expect(audited("signin.failed").length).toBeLessThanOrEqual(LIMITS.signinAccountFailures.max);
    expect(audited("signin.locked_out").length).toBeGreaterThan(0);
    expect((await post("/api/signin", { email: owner.email, password: STRONG }, owner.home)).status).toBe(200);
  }, 120_000);

  it("a correct password signs in while a distributed attack has spent the global budget (it is slowed, not refused)", async () => {
    const owner = await signUp();
    // A few real guesses at other accounts from many networks, then the budget marked spent as
    // 2,000 such guesses would leave it (running 2,000 PBKDF2s here would take minutes).
    for (let i = 0; i < 5; i++)
      expect((await post("/api/signin", { email: email(), password: "guess" }, freshIp())).status).toBe(401);
    const window = Date.now() - (Date.now() % LIMITS.signinGlobalFailures.windowMs);
    await env.DB.prepare("UPDATE rate_limits SET count = ?, window_start = ? WHERE key = ?")
      .bind(LIMITS.signinGlobalFailures.max + 1, window, `${LIMITS.signinGlobalFailures.name}:all`)
      .run();
    expect((await post("/api/signin", { email: owner.email, password: STRONG }, freshIp())).status).toBe(200);
    expect((await post("/api/signin", { email: email(), password: "guess" }, freshIp())).status).toBe(401);
    expect(audited("signin.global_budget_spent").length).toBeGreaterThan(0);
    await env.DB.prepare("UPDATE rate_limits SET count = 0 WHERE key = ?")
      .bind(`${LIMITS.signinGlobalFailures.name}:all`)
      .run();
  }, 60_000);

  it("right passwords spend nothing: an office signs in many times between a stranger's guesses", async () => {
    const owner = await signUp();
    const office = owner.home;
    for (let i = 0; i < LIMITS.signinFailures.max - 1; i++) {
      expect((await post("/api/signin", { email: owner.email, password: `wrong ${i}` }, office)).status).toBe(401);
    }
    for (let i = 0; i < 5; i++)
      expect((await post("/api/signin", { email: owner.email, password: STRONG }, office)).status).toBe(200);
  }, 60_000);
});

describe("recovery limits keyed by an e-mail never lock out its owner", () => {
  it("strangers asking for resets slow only themselves; the owner's request from a known network is mailed", async () => {
    const owner = await signUp();
    const before = await outboxCount(owner.email);
    for (let i = 0; i < LIMITS.forgotMailsPerEmail.max + 4; i++) {
      expect((await post("/api/password/forgot", { email: owner.email }, freshIp())).status).toBe(200);
    }
    // The owner's inbox got at most the cap from strangers.
    expect((await outboxCount(owner.email)) - before).toBe(LIMITS.forgotMailsPerEmail.max);
    expect(audited("password.reset_mail_suppressed").length).toBe(4);
    const res = await post("/api/password/forgot", { email: owner.email }, owner.home);
    expect(res.status).toBe(200);
    expect((await outboxCount(owner.email)) - before).toBe(LIMITS.forgotMailsPerEmail.max + 1);
  }, 60_000);

  it("one network asking too often for one address is refused, audited", async () => {
    const owner = await signUp();
    const stranger = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.forgotPerEmailAndNetwork.max; i++)
      statuses.push((await post("/api/password/forgot", { email: owner.email }, stranger)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(audited("password.reset_refused").length).toBe(1);
    expect((await post("/api/password/forgot", { email: owner.email }, owner.home)).status).toBe(200);
  });

  it("e-mail checks by strangers never make the login page's e-mail step refuse the owner", async () => {
    const owner = await signUp();
    for (let i = 0; i < 30; i++)
      expect((await post("/api/verify/email", { email: owner.email }, freshIp())).status).toBe(200);
    const res = await post("/api/verify/email", { email: owner.email }, freshIp());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ exists: true });
  });
});

describe("reset links and notices", () => {
  const linkIn = (text: string) => {
    const link = new URL(text.match(/https?:\/\/\S+reset-password\S+/)![0]);
    return { token: link.searchParams.get("token"), user: link.searchParams.get("uid") };
  };
  const mails = async (to: string) =>
    (
      await env.DB.prepare("SELECT subject, text FROM email_outbox WHERE `to` = ? ORDER BY id")
        .bind(to)
        .all<{ subject: string; text: string }>()
    ).results;

  it("a reset revokes the user's other reset links, and mails a notice", async () => {
    const owner = await signUp();
    await post("/api/password/forgot", { email: owner.email }, owner.home);
    await post("/api/password/forgot", { email: owner.email }, owner.home);
    const [first, second] = (await mails(owner.email))
      .filter((m) => m.subject.startsWith("Reset"))
      .map((m) => linkIn(m.text));
    expect(
      (await post("/api/password/reset", { ...second, password: "a much better passphrase" }, owner.home)).status,
    ).toBe(200);
    const stale = await post("/api/password/reset", { ...first, password: "another fine passphrase" }, owner.home);
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as Json).error?.code).toBe("reset_token_expired");
    expect((await mails(owner.email)).some((m) => m.subject === "Your Fleet Ops password was reset")).toBe(true);
  });

  it("a password change revokes outstanding reset links, and mails a notice", async () => {
    const owner = await signUp();
    const token = (
      (await (await post("/api/signin", { email: owner.email, password: STRONG }, owner.home)).json()) as Json
    ).token!;
    await post("/api/password/forgot", { email: owner.email }, owner.home);
    const link = linkIn((await mails(owner.email)).find((m) => m.subject.startsWith("Reset"))!.text);
    const changed = await post(
      "/api/password/change",
      { currentPassword: STRONG, password: "a much better passphrase" },
      owner.home,
      token,
    );
    expect(changed.status).toBe(200);
    expect(
      (await post("/api/password/reset", { ...link, password: "another fine passphrase" }, owner.home)).status,
    ).toBe(400);
    expect((await mails(owner.email)).some((m) => m.subject === "Your Fleet Ops password was changed")).toBe(true);
  });

  it("a sign-in from a new device is mailed to the owner; one from a known device is not", async () => {
    const owner = await signUp();
    const count = async () =>
      (await mails(owner.email)).filter((m) => m.subject === "New sign-in to your Fleet Ops account").length;
    expect((await post("/api/signin", { email: owner.email, password: STRONG }, owner.home)).status).toBe(200);
    expect(await count()).toBe(0);
    expect((await post("/api/signin", { email: owner.email, password: STRONG }, freshIp())).status).toBe(200);
    expect(await count()).toBe(1);
  });
});
