import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { workspaceSmsAccounts } from "../../db/schema";
import type { SmsAccount } from "../../shared/jobs/sms-account";
import { unseal } from "../alerts/webhook-secret";
import { config } from "../env";
import { database } from "../test/db";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { fetchWithEnv } from "../test/with-env";

// A workspace's own Twilio account for texts to its customers (issue 53, docs/decisions/0093):
// owners and admins set it, the token is sealed to the workspace and never answered again.
const SID = "AC0123456789abcdef0123456789abcdef";
const TOKEN = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
const ACCOUNT = { accountSid: SID, authToken: TOKEN, from: "+1 (500) 555-0006" };

const put = (token: string, json: unknown) => call("/api/workspace/sms", { method: "PUT", token, json });
const read = (token: string) => call("/api/workspace/sms", { token });

describe("the workspace's Twilio account", () => {
  it("is none until an owner saves one; answered with its SID and number, never its token", async () => {
    const a = await userWithWorkspace();
    expect(await (await read(a.token)).json()).toEqual({
      configured: false,
      accountSid: null,
      from: null,
      updatedAt: null,
    });
    const saved = await put(a.token, ACCOUNT);
    expect(saved.status).toBe(200);
    expect(saved.headers.get("Cache-Control")).toBe("no-store");
    const answers = [await saved.text(), await (await read(a.token)).text()];
    const prefs = await (await call("/api/workspace/preferences", { token: a.token })).text();
    for (const answer of [...answers, prefs]) expect(answer).not.toContain(TOKEN);
    expect(JSON.parse(answers[1]!)).toEqual({
      configured: true,
      accountSid: SID,
      from: "+15005550006", // kept in E.164
      updatedAt: expect.any(String),
    } satisfies Record<keyof SmsAccount, unknown>);
    expect((JSON.parse(prefs) as { customerSms: boolean }).customerSms).toBe(true);
  });

  it("keeps the token sealed to the workspace: the raw row does not hold it, and it opens only for that workspace", async () => {
    const a = await userWithWorkspace();
    expect((await put(a.token, ACCOUNT)).status).toBe(200);
    const row = await database(env.DB)
      .select()
      .from(workspaceSmsAccounts)
      .where(eq(workspaceSmsAccounts.workspaceId, a.workspaceId))
      .get();
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    const key = config(env).WEBHOOK_SECRET_KEY;
    expect(await unseal(key, a.workspaceId, row!.authTokenSealed)).toBe(TOKEN);
    const b = await userWithWorkspace();
    await expect(unseal(key, b.workspaceId, row!.authTokenSealed)).rejects.toThrow();
  });

  it("is replaced by a new save and forgotten by Remove", async () => {
    const a = await userWithWorkspace();
    await put(a.token, ACCOUNT);
    const service = "MG0123456789abcdef0123456789abcdef";
    const replaced = await put(a.token, { ...ACCOUNT, from: service });
    expect(((await replaced.json()) as SmsAccount).from).toBe(service);
    const removed = await call("/api/workspace/sms", { method: "DELETE", token: a.token });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as SmsAccount).configured).toBe(false);
    expect(((await (await read(a.token)).json()) as SmsAccount).configured).toBe(false);
    const prefs = await (await call("/api/workspace/preferences", { token: a.token })).json();
    expect((prefs as { customerSms: boolean }).customerSms).toBe(false);
  });

  it("is one workspace's: another's owner neither sees it nor has texts from it", async () => {
    const a = await userWithWorkspace();
    await put(a.token, ACCOUNT);
    const b = await userWithWorkspace();
    expect(((await (await read(b.token)).json()) as SmsAccount).configured).toBe(false);
    const prefs = await (await call("/api/workspace/preferences", { token: b.token })).json();
    expect((prefs as { customerSms: boolean }).customerSms).toBe(false);
  });

  it("is read, set and removed by owners and admins only: members and viewers are refused (403)", async () => {
    const a = await userWithWorkspace();
    const admin = await memberWithRole(a.workspaceId, "admin");
    expect((await put(admin.token, ACCOUNT)).status).toBe(200);
    for (const role of ["member", "viewer"]) {
      const { token } = await memberWithRole(a.workspaceId, role);
      expect((await read(token)).status, role).toBe(403);
      expect((await put(token, ACCOUNT)).status, role).toBe(403);
      expect((await call("/api/workspace/sms", { method: "DELETE", token })).status, role).toBe(403);
    }
    expect(((await (await read(a.token)).json()) as SmsAccount).configured).toBe(true);
  });

  it("refuses a malformed SID, token or sender with a 400 naming each field", async () => {
    const a = await userWithWorkspace();
    const fieldsOf = async (json: unknown) => {
      const res = await put(a.token, json);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { fields: Record<string, string[]> } };
      return error.fields;
    };
    const wrong = await fieldsOf({ accountSid: "SK0123", authToken: "not-a-token", from: "555 0100" });
    expect(Object.keys(wrong).sort()).toEqual(["accountSid", "authToken", "from"]);
    expect(wrong.accountSid?.[0]).toMatch(/AC followed by 32 hexadecimal/);
    expect(wrong.authToken?.[0]).toMatch(/32 hexadecimal/);
    expect(wrong.from?.[0]).toMatch(/international form/);
    expect(Object.keys(await fieldsOf({})).sort()).toEqual(["accountSid", "authToken", "from"]);
    expect(Object.keys(await fieldsOf({ ...ACCOUNT, from: "MG0123" }))).toEqual(["from"]);
    expect(((await (await read(a.token)).json()) as SmsAccount).configured).toBe(false);
  });
});

// "Send a test text": a wrong token or sender shows on Preferences at once, not as customers' texts
// `held` after three tries. Twilio is faked at its HTTP boundary.
const TWILIO_API_URL = "https://twilio.test";

/** Twilio's Messages API faked: records each request and answers as `answer` says. */
function fakeTwilio(answer: () => { status: number; body: object }) {
  const requests: { path: string; auth: string | null; form: URLSearchParams }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== TWILIO_API_URL) throw new Error(`unexpected fetch ${url.href}`);
    requests.push({
      path: url.pathname,
      auth: new Headers(init?.headers).get("Authorization"),
      form: new URLSearchParams(String(init?.body)),
    });
    const { status, body } = answer();
    return Response.json(body, { status });
  });
  return requests;
}

/** `POST /api/workspace/sms/test` through the real Worker, with Twilio's address the fake's. */
async function sendTest(token: string, json: unknown) {
  return fetchWithEnv(
    new Request("http://localhost/api/workspace/sms/test", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(json),
    }),
    { TWILIO_API_URL },
  );
}
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe("a test text", () => {
  afterEach(() => vi.restoreAllMocks());

  it("goes through the workspace's own account to the number given, naming the workspace", async () => {
    const a = await userWithWorkspace();
    await put(a.token, ACCOUNT);
    const requests = fakeTwilio(() => ({ status: 201, body: { sid: "SM0001" } }));
    const res = await sendTest(a.token, { to: "+1 (312) 555-0199" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sent: true, to: "+13125550199", providerId: "SM0001" });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(requests[0]!.auth).toBe(`Basic ${btoa(`${SID}:${TOKEN}`)}`);
    expect(requests[0]!.form.get("To")).toBe("+13125550199");
    expect(requests[0]!.form.get("From")).toBe("+15005550006");
    expect(requests[0]!.form.get("Body")).toMatch(/test text/);
  });

  it("says what to mend: the account refused, the text refused in Twilio's words, Twilio unreachable", async () => {
    const a = await userWithWorkspace();
    await put(a.token, ACCOUNT);
    fakeTwilio(() => ({ status: 401, body: { code: 20003, message: "Authenticate" } }));
    const refused = await sendTest(a.token, { to: "+13125550199" });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: "sms_account_refused", message: /auth token/ });
    vi.restoreAllMocks();
    fakeTwilio(() => ({
      status: 400,
      body: { code: 21606, message: "The From phone number is not a valid, SMS-capable inbound phone number" },
    }));
    const sender = await sendTest(a.token, { to: "+13125550199" });
    expect(sender.status).toBe(400);
    expect(await errorOf(sender)).toMatchObject({ code: "sms_test_refused", message: /From phone number.*21606/ });
    vi.restoreAllMocks();
    fakeTwilio(() => ({ status: 503, body: {} }));
    const down = await sendTest(a.token, { to: "+13125550199" });
    expect(down.status).toBe(502);
    expect(await errorOf(down)).toMatchObject({ code: "sms_provider_unreachable" });
  });

  it("is refused before Twilio is asked: no account kept (409), a malformed number (400), a member or viewer (403)", async () => {
    const a = await userWithWorkspace();
    const requests = fakeTwilio(() => ({ status: 201, body: { sid: "SM0002" } }));
    const none = await sendTest(a.token, { to: "+13125550199" });
    expect(none.status).toBe(409);
    expect((await errorOf(none)).code).toBe("sms_not_configured");
    await put(a.token, ACCOUNT);
    const malformed = await sendTest(a.token, { to: "555 0199" });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(await malformed.json())).toMatch(/international form/);
    for (const role of ["member", "viewer"]) {
      const { token } = await memberWithRole(a.workspaceId, role);
      expect((await sendTest(token, { to: "+13125550199" })).status, role).toBe(403);
    }
    expect(requests).toHaveLength(0);
  });

  it("uses only the caller's workspace's account: another's owner with none set gets 409", async () => {
    const a = await userWithWorkspace();
    await put(a.token, ACCOUNT);
    const b = await userWithWorkspace();
    const requests = fakeTwilio(() => ({ status: 201, body: { sid: "SM0003" } }));
    expect((await sendTest(b.token, { to: "+13125550199" })).status).toBe(409);
    expect(requests).toHaveLength(0);
  });
});
