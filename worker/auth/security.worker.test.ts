import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { call } from "../test/factories";
import { BREACHED_PASSWORD_MESSAGE, WEAK_PASSWORD_MESSAGE } from "./password-strength";
import { LIMITS, networkOf } from "./rate-limit";
import { emailId } from "../lib/audit";

/**
 * Issue 13's rules on the account endpoints: passwords that cannot be guessed, abuse limits that
 * stop attackers and not offices, development routes that do not exist outside a developer's
 * machine, and the audit trail (one JSON line per security event, with no secret in it).
 */
type Json = { token?: string; error?: { code: string; fields?: Record<string, string[]> } };
const email = () => `sec-${crypto.randomUUID().slice(0, 8)}@example.com`;
const v4 = () => `10.2.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;
const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
const post = (path: string, json: unknown, ip = v4(), token?: string) =>
  call(path, { method: "POST", headers: { "CF-Connecting-IP": ip }, json, token });
const STRONG = "correct horse battery";

let log: MockInstance<typeof console.log>;
beforeEach(() => {
  log = vi.spyOn(console, "log");
});
afterEach(() => log.mockRestore());
const audited = () =>
  log.mock.calls
    .map((args) => String(args[0]))
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.audit === true);

async function signUp(address = email()) {
  const res = await post("/api/signup", { email: address, password: STRONG });
  expect(res.status).toBe(201);
  return { email: address, token: ((await res.json()) as Json).token! };
}

describe("passwords", () => {
  it("accepts any random 12-character password and states the 12-character rule (issue 23)", async () => {
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (let i = 0; i < 30; i++) {
      const password = Array.from(
        crypto.getRandomValues(new Uint8Array(12)),
        (b) => alphabet[b % alphabet.length],
      ).join("");
      const res = await post("/api/signup", { email: email(), password });
      expect(res.status, password).toBe(201);
    }
    const short = await post("/api/signup", { email: email(), password: "Xy7#kq2!Lm9" });
    expect(((await short.json()) as Json).error?.fields?.password).toEqual(["Use at least 12 characters"]);
  }, 60_000);

  it.each(["password1234", "123456789012", "qwertyuiopas", "passwordpassword", "iloveyou1234"])(
    "sign-up refuses %s on the password field",
    async (password) => {
      const res = await post("/api/signup", { email: email(), password });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Json;
      expect(body.error?.code).toBe("weak_password");
      expect(body.error?.fields?.password).toEqual([WEAK_PASSWORD_MESSAGE]);
    },
  );

  it.each(["LockingServi", "internacional", "mishaoooyeah"])(
    "sign-up refuses %s, leaked though long enough to pass the estimate",
    async (password) => {
      const res = await post("/api/signup", { email: email(), password });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Json;
      expect(body.error?.code).toBe("breached_password");
      expect(body.error?.fields?.password).toEqual([BREACHED_PASSWORD_MESSAGE]);
    },
  );

  it("refuses a password made of the e-mail, and accepts a long phrase", async () => {
    const local = `frederick.warehouse${Math.floor(Math.random() * 1000)}`;
    const address = `${local}@example.com`;
    expect((await post("/api/signup", { email: address, password: local })).status).toBe(400);
    expect((await post("/api/signup", { email: address, password: STRONG })).status).toBe(201);
  });

  it("reset refuses a weak password and leaves the link usable for a strong one", async () => {
    const user = await signUp();
    expect((await post("/api/password/forgot", { email: user.email })).status).toBe(200);
    const mail = (await (await call(`/api/dev/outbox?to=${encodeURIComponent(user.email)}`)).json()) as {
      text: string;
    };
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    const reset = { token: link.searchParams.get("token"), user: link.searchParams.get("uid") };
    const weak = await post("/api/password/reset", { ...reset, password: "123456789012" });
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as Json).error?.fields?.password).toEqual([WEAK_PASSWORD_MESSAGE]);
    expect((await post("/api/password/reset", { ...reset, password: "a much better passphrase" })).status).toBe(200);
  });

  it("change needs the current password, refuses a weak one, and ends every other session", async () => {
    const user = await signUp();
    const other = ((await (await post("/api/signin", { email: user.email, password: STRONG })).json()) as Json).token!;
    const wrong = await post(
      "/api/password/change",
      { currentPassword: "not it at all", password: "a much better passphrase" },
      v4(),
      user.token,
    );
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as Json).error?.fields?.currentPassword).toBeDefined();
    const weak = await post(
      "/api/password/change",
      { currentPassword: STRONG, password: "password1234" },
      v4(),
      user.token,
    );
    expect(((await weak.json()) as Json).error?.fields?.password).toEqual([WEAK_PASSWORD_MESSAGE]);
    const ok = await post(
      "/api/password/change",
      { currentPassword: STRONG, password: "a much better passphrase" },
      v4(),
      user.token,
    );
    expect(ok.status).toBe(200);
    const fresh = ((await ok.json()) as Json).token!;
    expect((await call("/api/me", { token: other })).status).toBe(401);
    expect((await call("/api/me", { token: user.token })).status).toBe(401);
    expect((await call("/api/me", { token: fresh })).status).toBe(200);
    expect((await post("/api/signin", { email: user.email, password: "a much better passphrase" })).status).toBe(200);
    expect(audited().map((e) => e.event)).toContain("password.changed");
  });
});

describe("abuse limits", () => {
  it("key IPv6 addresses by their /64, IPv4 as they are", () => {
    expect(networkOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:db8::5")).toBe("2001:db8:0:0::/64");
    expect(networkOf("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(networkOf("192.0.2.7")).toBe("192.0.2.7");
  });

  it("a client rotating addresses within its IPv6 /64 stays under one limit", async () => {
    const prefix = `2001:db8:${hex()}:${hex()}`;
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.signinAddressFailures.max; i++) {
      statuses.push(
        (
          await post(
            "/api/signin",
            { email: email(), password: "guess guess" },
            `${prefix}:${hex()}:${hex()}::${i + 1}`,
          )
        ).status,
      );
    }
    expect(statuses.slice(0, LIMITS.signinAddressFailures.max).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another /64 is not affected.
    expect(
      (await post("/api/signin", { email: email(), password: "guess guess" }, `2001:db8:${hex()}:${hex()}::1`)).status,
    ).toBe(401);
  }, 60_000);

  it("an office can sign up tens of people an hour from one address", async () => {
    const office = v4();
    for (let i = 0; i < 30; i++)
      expect((await post("/api/signup", { email: email(), password: STRONG }, office)).status).toBe(201);
  }, 60_000);

  it("a stranger guessing an owner's password locks out only themselves, on the audit trail", async () => {
    const owner = await signUp();
    const stranger = v4();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.signinFailures.max; i++) {
      statuses.push(
        (await post("/api/signin", { email: owner.email, password: `guess number ${i}` }, stranger)).status,
      );
    }
    expect(statuses.slice(0, LIMITS.signinFailures.max).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Even the right password is refused from the stranger's address now...
    expect((await post("/api/signin", { email: owner.email, password: STRONG }, stranger)).status).toBe(429);
    // ...while the owner, from their own address, signs in.
    expect((await post("/api/signin", { email: owner.email, password: STRONG })).status).toBe(200);
    const events = audited();
    const ownerId = await emailId(owner.email);
    expect(events.filter((e) => e.event === "signin.failed" && e.email === ownerId)).toHaveLength(
      LIMITS.signinFailures.max,
    );
    expect(events.some((e) => e.event === "signin.locked_out" && e.email === ownerId)).toBe(true);
    expect(events.some((e) => e.event === "signin.succeeded")).toBe(true);
  });

  it("successful sign-ins from one office do not use up its failure budget", async () => {
    const user = await signUp();
    const office = v4();
    for (let i = 0; i < LIMITS.signinFailures.max + 5; i++) {
      expect((await post("/api/signin", { email: user.email, password: STRONG }, office)).status).toBe(200);
    }
  }, 60_000);
});

describe("development routes", () => {
  it("answer only on loopback, with 404 before validation from anywhere else", async () => {
    // From this machine (tests run with ENVIRONMENT=test): validation applies.
    expect((await call("/api/dev/outbox")).status).toBe(400);
    // Through Cloudflare's edge (a client address), or under another host name: as if absent.
    for (const res of [
      await call("/api/dev/outbox", { headers: { "CF-Connecting-IP": "203.0.113.9" } }),
      await call("/api/dev/outbox?to=a@b.co", { headers: { "CF-Connecting-IP": "203.0.113.9" } }),
    ]) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as Json).error?.code).toBe("not_found");
    }
    const worker = (await import("cloudflare:workers")).exports as unknown as { default: Fetcher };
    expect((await worker.default.fetch("http://fleet.example.com/api/dev/outbox")).status).toBe(404);
  });
});

describe("the audit trail", () => {
  it("records sign-up's sessions, reset requested and completed, and session revoked, with no secret in any line", async () => {
    const user = await signUp();
    expect((await post("/api/signin", { email: user.email, password: "wrong wrong wrong" })).status).toBe(401);
    expect((await post("/api/password/forgot", { email: user.email })).status).toBe(200);
    const mail = (await (await call(`/api/dev/outbox?to=${encodeURIComponent(user.email)}`)).json()) as {
      text: string;
    };
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    const resetToken = link.searchParams.get("token")!;
    const password = "an entirely new passphrase";
    expect(
      (await post("/api/password/reset", { token: resetToken, user: link.searchParams.get("uid"), password })).status,
    ).toBe(200);
    const events = audited();
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        "signin.failed",
        "password.reset_requested",
        "password.reset_completed",
        "session.revoked",
      ]),
    );
    for (const e of events) expect(typeof e.at).toBe("string");
    const lines = events.map((e) => JSON.stringify(e)).join("\n");
    for (const secret of [STRONG, "wrong wrong wrong", password, resetToken, user.token, user.email])
      expect(lines).not.toContain(secret);
  });
});
