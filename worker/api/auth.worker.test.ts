import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { passwordCredentials } from "../../db/schema";
import { database } from "../../db/client";
import { call } from "../test/factories";

type Json = Record<string, unknown> & { error?: { code: string; message: string; fields?: Record<string, string[]> } };
const json = async (res: Response) => (await res.json()) as Json;
const email = () => `user-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** Each simulated person comes from their own address, so per-IP limits do not interfere. */
const fromIp = () => ({
  "CF-Connecting-IP": `10.0.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function signUp(address = email(), password = "correct horse battery") {
  const res = await call("/api/signup", { method: "POST", headers: fromIp(), json: { email: address, password } });
  expect(res.status).toBe(201);
  return { email: address, password, token: (await json(res)).token as string };
}

describe("sign-up and sign-in", () => {
  it("signs up, then api/me answers the viewer with no workspace yet", async () => {
    const { email: address, token } = await signUp();
    const me = await json(await call("/api/me", { token }));
    expect(me.viewer).toMatchObject({ email: address });
    expect(me.workspace).toBeNull();
    expect(me.workspaces).toEqual([]);
    expect(me.flags).toMatchObject({ googleSignIn: true });
  });

  it("stores a salted PBKDF2 hash that names its parameters", async () => {
    await signUp();
    const rows = await database(env.DB).select().from(passwordCredentials).all();
    const hash = rows.at(-1)!.hash;
    expect(hash).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(new Set(rows.map((r) => r.hash.split("$")[2])).size).toBe(rows.length);
  });

  it("refuses a second account for the same e-mail, whatever its case", async () => {
    const { email: address } = await signUp();
    const res = await call("/api/signup", {
      method: "POST",
      json: { email: address.toUpperCase(), password: "another password" },
    });
    expect(res.status).toBe(409);
    expect((await json(res)).error?.fields?.email).toBeDefined();
  });

  it("tells whether an e-mail has an account", async () => {
    const { email: address } = await signUp();
    expect(await json(await call("/api/verify/email", { method: "POST", json: { email: address } }))).toEqual({
      exists: true,
    });
    expect(await json(await call("/api/verify/email", { method: "POST", json: { email: email() } }))).toEqual({
      exists: false,
    });
  });

  it("signs in whatever the case and surrounding spaces of the e-mail", async () => {
    const user = await signUp();
    const res = await call("/api/signin", {
      method: "POST",
      headers: fromIp(),
      json: { email: `  ${user.email.toUpperCase()} `, password: user.password },
    });
    expect(res.status).toBe(200);
  });

  it("signs in with the right password only", async () => {
    const user = await signUp();
    const wrong = await call("/api/signin", { method: "POST", json: { email: user.email, password: "nope nope" } });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).error?.code).toBe("invalid_credentials");
    const unknown = await call("/api/signin", { method: "POST", json: { email: email(), password: "whatever1" } });
    expect(unknown.status).toBe(401);
    const ok = await call("/api/signin", { method: "POST", json: { email: user.email, password: user.password } });
    expect(ok.status).toBe(200);
    expect(typeof (await json(ok)).token).toBe("string");
  });

  it("answers bad input with 400 JSON naming the field", async () => {
    const res = await call("/api/signin", { method: "POST", json: { email: "not-an-email", password: "x" } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error?.fields?.email).toEqual(["Invalid email address"]);
    const malformed = await call("/api/signin", {
      method: "POST",
      body: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error?.code).toBe("bad_request");
    const missing = await call("/api/signup", { method: "POST", json: {} });
    expect(missing.status).toBe(400);
  });

  it("signs out by revoking the session on the server", async () => {
    const { token } = await signUp();
    expect((await call("/api/signout", { method: "POST", token })).status).toBe(200);
    const me = await call("/api/me", { token });
    expect(me.status).toBe(401);
  });

  it("rejects missing or forged tokens", async () => {
    expect((await call("/api/me")).status).toBe(401);
    expect((await call("/api/me", { token: "forged" })).status).toBe(401);
  });
});

describe("workspaces", () => {
  it("creates a workspace, switches the session to it and lists it in api/me", async () => {
    const { token } = await signUp();
    const created = await call("/api/workspaces", { method: "POST", token, json: { name: "Acme Logistics" } });
    expect(created.status).toBe(201);
    const { id } = await json(created);
    const switched = await json(
      await call("/api/workspaces/session", { method: "POST", token, json: { workspaceId: id } }),
    );
    expect(switched.token).not.toBe(token);
    const me = await json(await call("/api/me", { token: switched.token as string }));
    expect(me.workspace).toEqual({ id, name: "Acme Logistics" });
    expect(me.workspaces).toEqual([{ id, name: "Acme Logistics" }]);
    // The token it replaced is revoked (issue 13): only one token of a sign-in is live at a time.
    expect((await call("/api/me", { token })).status).toBe(401);
  });

  it("never switches into someone else's workspace", async () => {
    const owner = await signUp();
    const { id } = await json(
      await call("/api/workspaces", { method: "POST", token: owner.token, json: { name: "Theirs" } }),
    );
    const intruder = await signUp();
    const res = await call("/api/workspaces/session", {
      method: "POST",
      token: intruder.token,
      json: { workspaceId: id },
    });
    expect(res.status).toBe(403);
    expect((await json(await call("/api/me", { token: intruder.token }))).workspaces).toEqual([]);
  });

  it("signs returning users into their first workspace", async () => {
    const user = await signUp();
    const { id } = await json(
      await call("/api/workspaces", { method: "POST", token: user.token, json: { name: "Mine" } }),
    );
    const { token } = await json(
      await call("/api/signin", {
        method: "POST",
        headers: fromIp(),
        json: { email: user.email, password: user.password },
      }),
    );
    expect((await json(await call("/api/me", { token: token as string }))).workspace).toMatchObject({ id });
  });

  it("requires a name", async () => {
    const { token } = await signUp();
    const res = await call("/api/workspaces", { method: "POST", token, json: { name: "  " } });
    expect(res.status).toBe(400);
    expect((await json(res)).error?.fields?.name).toEqual(["Required"]);
  });
});

describe("abuse limits", () => {
  // Issue 23: a limit keyed by an e-mail alone let strangers lock its owner out; now only networks are refused.
  it("never refuses e-mail checks because others checked the same e-mail", async () => {
    const address = email();
    for (let i = 0; i < 30; i++) {
      expect(
        (await call("/api/verify/email", { method: "POST", headers: fromIp(), json: { email: address } })).status,
      ).toBe(200);
    }
  });

  it("limits sign-ups per e-mail from one network, not from others", async () => {
    const address = email();
    const office = fromIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await call("/api/signup", {
            method: "POST",
            headers: office,
            json: { email: address, password: "long enough here" },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
    expect(
      (
        await call("/api/signup", {
          method: "POST",
          headers: fromIp(),
          json: { email: address, password: "long enough here" },
        })
      ).status,
    ).toBe(409);
  });
});

describe("sessions", () => {
  it("signing out ends only that sign-in", async () => {
    const user = await signUp();
    const other = await json(
      await call("/api/signin", {
        method: "POST",
        headers: fromIp(),
        json: { email: user.email, password: user.password },
      }),
    );
    expect((await call("/api/signout", { method: "POST", token: user.token })).status).toBe(200);
    expect((await call("/api/me", { token: user.token })).status).toBe(401);
    expect((await call("/api/me", { token: other.token as string })).status).toBe(200);
    // Signing out twice is a 401, not a success that changed nothing.
    expect((await call("/api/signout", { method: "POST", token: user.token })).status).toBe(401);
  });

  it("gives every sign-in a new, unguessable token", async () => {
    const user = await signUp();
    const again = (
      await json(
        await call("/api/signin", {
          method: "POST",
          headers: fromIp(),
          json: { email: user.email, password: user.password },
        }),
      )
    ).token as string;
    expect(again).not.toBe(user.token);
    expect(again).toMatch(/^[\w-]{43}$/);
  });

  it("accepts a token only as a Bearer authorization", async () => {
    const { token } = await signUp();
    expect((await call("/api/me", { headers: { Authorization: token } })).status).toBe(401);
    expect((await call("/api/me", { headers: { Authorization: `Basic ${token}` } })).status).toBe(401);
    expect((await call("/api/me", { headers: { Authorization: `Bearer ${"x".repeat(5000)}` } })).status).toBe(401);
  });
});

describe("bad input on every account endpoint", () => {
  const huge = "a".repeat(20_000);
  const bodies: Array<[string, RequestInit]> = [
    ["no body", {}],
    ["malformed JSON", { body: '{"email": ', headers: { "Content-Type": "application/json" } }],
    ["a JSON array", { body: "[]", headers: { "Content-Type": "application/json" } }],
    ["JSON null", { body: "null", headers: { "Content-Type": "application/json" } }],
    [
      "wrong types",
      {
        body: JSON.stringify({ email: 12, password: true, name: [], workspaceId: {}, token: 1, user: null }),
        headers: { "Content-Type": "application/json" },
      },
    ],
    [
      "huge fields",
      {
        body: JSON.stringify({
          email: `${huge}@example.com`,
          password: huge,
          name: huge,
          workspaceId: huge,
          token: huge,
          user: huge,
          code: huge,
          state: huge,
        }),
        headers: { "Content-Type": "application/json" },
      },
    ],
    [
      "a form instead of JSON",
      { body: "email=a%40b.co&password=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
    ],
  ];
  const endpoints = [
    "/api/verify/email",
    "/api/signin",
    "/api/signup",
    "/api/password/forgot",
    "/api/password/reset",
    "/api/workspaces",
    "/api/workspaces/session",
  ];

  it.each(endpoints)("%s answers 4xx JSON, never 5xx", async (path) => {
    const { token } = await signUp();
    for (const [label, init] of bodies) {
      const res = await call(path, {
        method: "POST",
        token,
        ...init,
        headers: { ...fromIp(), ...(init.headers as Record<string, string>) },
      });
      expect(res.status, `${path} with ${label}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} with ${label}`).toBeLessThan(500);
      const body = await json(res);
      expect(typeof body.error?.code, `${path} with ${label}`).toBe("string");
      expect(typeof body.error?.message, `${path} with ${label}`).toBe("string");
    }
  });

  it("refuses a body over 256 KB with 413 JSON", async () => {
    const res = await call("/api/signup", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: email(), password: "x".repeat(300 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect((await json(res)).error?.code).toBe("payload_too_large");
  });
});
