import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { customerRecipients, emailOutbox, jobChanges, jobMessages, jobs, users } from "../../db/schema";
import type { CustomerMessageSettings, JobMessage } from "../../shared/jobs/customer-messages";
import { TELLING_STATUSES } from "../../shared/jobs/customer-message-rule";
import { JOB_STATUSES } from "../../shared/jobs/jobs";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import type { TrackedJobAnswer } from "../../shared/jobs/job-shares";
import { dayOf, addDays } from "../../shared/units/time-zone";
import { config } from "../env";
import { call, memberWithRole, userWithWorkspace, workspaceWithBeacon } from "../test/factories";
import { ingest, runObjectTasks } from "../test/ingest";
import { insertJob } from "../test/jobs";
import commute from "../fleet/fixtures/commute";
import { parseOsmandParams, type Report } from "../../domain/devices/osmand";
import { database } from "../test/db";
import { queueArrivingMessages, sendJobMessages } from "./customer-messages";
import { fetchWithEnv } from "../test/with-env";

// Customers told of their visit (issue 53, docs/decisions/0085): the jobs' triggers record a change
// whoever makes it, the sender queues its messages by the one rule (messagesForJobChange) and sends
// them once per kind and channel, through the customer mail rules.
const db = () => database(env.DB);
const ALL_ON: CustomerMessageSettings = {
  enRoute: true,
  arrivingMinutes: 10,
  completed: true,
  failed: true,
  showProofPhoto: true,
};
/** Twilio's API as the tests fake it (the server names no account: each workspace brings its own, ADR 0093). */
const TWILIO_API_URL = "https://twilio.test";
const withTwilio = () => ({ ...config(env), TWILIO_API_URL });

/** A Twilio account as a workspace's owner enters it: SID AC + 32 hex, token 32 hex, a number. */
function twilioAccount(from = "+15005550006") {
  const hex = () => crypto.randomUUID().replace(/-/g, "");
  return { accountSid: `AC${hex()}`, authToken: hex(), from };
}
type TwilioAccountInput = ReturnType<typeof twilioAccount>;

/** The workspace's own Twilio account, set as its owner does (PUT /api/workspace/sms). */
async function setTwilio(token: string, account: TwilioAccountInput) {
  const res = await call("/api/workspace/sms", { method: "PUT", token, json: account });
  expect(res.status).toBe(200);
}

afterEach(() => vi.restoreAllMocks());

const prefs = (token: string, json: unknown) => call("/api/workspace/preferences", { method: "PATCH", token, json });

/**
 * A workspace telling its customers everything, and one job of today with a customer to tell;
 * with `twilio`, the workspace texts through that account of its own.
 */
async function customerJob(
  customer: { customerEmail?: string; customerPhone?: string } = {},
  twilio: TwilioAccountInput | null = null,
) {
  const a = await userWithWorkspace();
  expect((await prefs(a.token, { customerMessages: ALL_ON })).status).toBe(200);
  if (twilio) await setTwilio(a.token, twilio);
  const res = await call("/api/jobs", {
    method: "POST",
    token: a.token,
    json: {
      title: "Deliver the boiler",
      date: dayOf(Date.now(), "UTC"),
      location: { latitude: 41.9104, longitude: -87.6676 },
      windowStart: "09:00",
      windowEnd: "11:00",
      customerName: "Ann Lee",
      customerEmail: "ann@example.com",
      ...customer,
    },
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return { ...a, jobId: id };
}

/** A status written as any writer writes it (the object's flush, a route): the triggers queue from it. */
async function setJob(jobId: string, set: Partial<typeof jobs.$inferInsert>) {
  await db().update(jobs).set(set).where(eq(jobs.id, jobId));
}

/**
 * Sends until nothing is left queued or claimed: a route's own send after its answer (waitUntil)
 * may hold some rows meanwhile, and is waited for here by count, never by time.
 */
async function drain(cfg = config(env)) {
  for (let round = 0; round < 500; round++) {
    await sendJobMessages(db(), cfg);
    const open = await db()
      .select({ id: jobMessages.id })
      .from(jobMessages)
      // in-list: the two states a message waits in
      .where(inArray(jobMessages.status, ["queued", "sending"]))
      .all();
    if (open.length === 0) return;
  }
  throw new Error("customer messages never settled");
}

const mailsTo = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).all();
const story = async (token: string, jobId: string) => {
  const res = await call(`/api/jobs/${jobId}`, { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: JobMessage[] }).messages;
};

/**
 * A fake of Twilio's Messages API at its HTTP boundary: records each text with the account its
 * path names, the Basic credentials and the sender it was given, and answers as Twilio does.
 */
function fakeTwilio(answer: (to: string) => { status: number; body: object } = () => ({ status: 201, body: {} })) {
  const texts: {
    to: string;
    body: string;
    auth: string | null;
    pathSid: string | undefined;
    from: string | null;
    messagingService: string | null;
    statusCallback: string | null;
  }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== TWILIO_API_URL) throw new Error(`unexpected fetch ${url.href}`);
    const path = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
    expect(path, url.pathname).not.toBeNull();
    const form = new URLSearchParams(String(init?.body));
    const to = form.get("To")!;
    texts.push({
      to,
      body: form.get("Body")!,
      auth: new Headers(init?.headers).get("Authorization"),
      pathSid: path?.[1],
      from: form.get("From"),
      messagingService: form.get("MessagingServiceSid"),
      statusCallback: form.get("StatusCallback"),
    });
    const { status, body } = answer(to);
    return Response.json({ sid: `SM${texts.length}`, ...body }, { status });
  });
  return texts;
}

describe("the customer messages setting", () => {
  it("is off until chosen, saved whole or in part by owners and admins, refused to viewers (403)", async () => {
    const a = await userWithWorkspace();
    const read = async (token: string) =>
      (await (await call("/api/workspace/preferences", { token })).json()) as WorkspacePreferences;
    expect((await read(a.token)).customerMessages).toEqual({
      enRoute: false,
      arrivingMinutes: null,
      completed: false,
      failed: false,
      showProofPhoto: false,
    });
    expect((await read(a.token)).customerSms).toBe(false);
    await prefs(a.token, { customerMessages: ALL_ON });
    const res = await prefs(a.token, { customerMessages: { arrivingMinutes: null } });
    expect(((await res.json()) as WorkspacePreferences).customerMessages).toEqual({ ...ALL_ON, arrivingMinutes: null });

    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await prefs(viewer.token, { customerMessages: { enRoute: false } })).status).toBe(403);
    const bad = await prefs(a.token, { customerMessages: { arrivingMinutes: 0, enRoute: "yes" } });
    expect(bad.status).toBe(400);
    const { error } = (await bad.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(error.fields).sort()).toEqual(["customerMessages.arrivingMinutes", "customerMessages.enRoute"]);
  });
});

describe("a job's customer phone", () => {
  it("is kept in E.164 (written with spaces and brackets or not), a bad one is a 400 naming the field", async () => {
    const a = await userWithWorkspace();
    const create = (customerPhone: string) =>
      call("/api/jobs", {
        method: "POST",
        token: a.token,
        json: { title: "Stop", date: "2026-12-01", location: { latitude: 1, longitude: 2 }, customerPhone },
      });
    const ok = await create("+1 (312) 555-0100");
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { customerPhone: string }).customerPhone).toBe("+13125550100");
    for (const wrong of ["312 555 0100", "+0123456789", "call me", "+1234"]) {
      const res = await create(wrong);
      expect(res.status, wrong).toBe(400);
      const { error } = (await res.json()) as { error: { fields: Record<string, string[]> } };
      expect(error.fields.customerPhone?.[0]).toMatch(/international form/);
    }
  });

  it("and the job's story are another workspace's 404", async () => {
    const { jobId } = await customerJob();
    const b = await userWithWorkspace();
    expect((await call(`/api/jobs/${jobId}`, { token: b.token })).status).toBe(404);
    const patched = await call(`/api/jobs/${jobId}`, {
      method: "PATCH",
      token: b.token,
      json: { customerPhone: "+13125550100" },
    });
    expect(patched.status).toBe(404);
  });
});

describe("messages to a job's customer", () => {
  it("tells each kind once, with the job's customer link and the unsubscribe link, and the story shows it without the address", async () => {
    const a = await customerJob({ customerEmail: "once@example.com" });
    const eta = Date.now() + 30 * 60_000;
    await setJob(a.jobId, { status: "en_route", eta });
    await setJob(a.jobId, { status: "scheduled", eta: null });
    await setJob(a.jobId, { status: "en_route", eta }); // on its way again: not told twice
    await drain();
    await setJob(a.jobId, { eta: Date.now() + 5 * 60_000 });
    await queueArrivingMessages(db());
    await queueArrivingMessages(db());
    await drain();
    // Done through the API, as a driver's "done": the route's own send and the drain share the rows.
    const done = await call(`/api/jobs/${a.jobId}/complete`, { method: "POST", token: a.token, json: {} });
    expect(done.status).toBe(200);
    await drain();

    const mails = await mailsTo("once@example.com");
    expect(mails.map((m) => m.subject)).toEqual([
      "Your visit is on its way",
      "Your visit is arriving soon",
      "Your visit is done",
    ]);
    const [onItsWay, arriving] = mails;
    expect(onItsWay!.text).toMatch(/"Deliver the boiler" is on its way, expected at about \d\d:\d\d UTC\./);
    expect(onItsWay!.text).toMatch(/^This message was sent by "Workspace /);
    expect(arriving!.text).toMatch(/is arriving in about [45] minutes/);
    const link = /Follow the vehicle: (http\S+\/track\/(\S+))/.exec(onItsWay!.text)!;
    expect(arriving!.text).toContain(link[1]); // one link per job, whatever the message
    expect(onItsWay!.headers?.["List-Unsubscribe"]).toMatch(/\/api\/unsubscribe\//);
    expect((await call(`/api/track/${link[2]}`)).status).toBe(200);

    const messages = await story(a.token, a.jobId);
    expect(messages.map(({ kind, channel, status }) => ({ kind, channel, status }))).toEqual([
      { kind: "en_route", channel: "email", status: "sent" },
      { kind: "arriving", channel: "email", status: "sent" },
      { kind: "completed", channel: "email", status: "sent" },
    ]);
    expect(JSON.stringify(messages)).not.toContain("once@example.com");
  });

  it("sends nothing the workspace did not choose, and no stale 'on its way' to a vehicle already there", async () => {
    const a = await customerJob({ customerEmail: "quiet@example.com" });
    await prefs(a.token, { customerMessages: { completed: false } });
    await setJob(a.jobId, { status: "en_route" });
    await setJob(a.jobId, { status: "arrived" }); // arrived before any sender ran
    await setJob(a.jobId, { status: "completed", completedAt: Date.now() });
    await drain();
    expect(await mailsTo("quiet@example.com")).toEqual([]);
    expect(await story(a.token, a.jobId)).toEqual([]);
  });

  it("honours an unsubscribe: nothing more goes to that address from that workspace, and the story says so", async () => {
    const a = await customerJob({ customerEmail: "stop@example.com" });
    await setJob(a.jobId, { status: "en_route" });
    await drain();
    const [first] = await mailsTo("stop@example.com");
    const token = /\/unsubscribe\/(\S+)$/m.exec(first!.text)![1]!;
    expect((await call(`/api/unsubscribe/${token}`, { method: "POST" })).status).toBe(200);
    await setJob(a.jobId, { status: "completed", completedAt: Date.now() });
    await drain();
    expect(await mailsTo("stop@example.com")).toHaveLength(1);
    expect((await story(a.token, a.jobId)).map((m) => `${m.kind}:${m.status}`)).toEqual([
      "en_route:sent",
      "completed:unsubscribed",
    ]);
  });

  it("tells of a cancellation only a customer who was told of the visit, once", async () => {
    const told = await customerJob({ customerEmail: "told@example.com" });
    await setJob(told.jobId, { status: "en_route" });
    await drain();
    await setJob(told.jobId, { status: "cancelled" });
    await setJob(told.jobId, { status: "scheduled" });
    await setJob(told.jobId, { status: "cancelled" });
    await drain();
    const mails = await mailsTo("told@example.com");
    expect(mails.map((m) => m.subject)).toEqual(["Your visit is on its way", "Your visit will not happen as planned"]);
    expect(mails[1]!.text).toMatch(/We could not make "Deliver the boiler" on \d{4}-\d\d-\d\d: it was called off\./);

    const never = await customerJob({ customerEmail: "never@example.com" });
    await setJob(never.jobId, { status: "cancelled" });
    await drain();
    expect(await mailsTo("never@example.com")).toEqual([]);
  });

  it("tells a customer who was told of the visit that it moved to another day", async () => {
    const a = await customerJob({ customerEmail: "moved@example.com" });
    await setJob(a.jobId, { status: "en_route" });
    await drain();
    const tomorrow = addDays(dayOf(Date.now(), "UTC"), 1);
    const moved = await call(`/api/jobs/${a.jobId}`, {
      method: "PATCH",
      token: a.token,
      json: { date: tomorrow, status: "scheduled" },
    });
    expect(moved.status).toBe(200);
    await drain();
    const last = (await mailsTo("moved@example.com")).at(-1)!;
    expect(last.text).toContain(`it is now planned for ${tomorrow}, 09:00–11:00 UTC.`);
  });

  it("holds what an unconfirmed job creator caused, never saying why to the API", async () => {
    const a = await customerJob({ customerEmail: "held@example.com" });
    await db().update(users).set({ emailConfirmedAt: null }).where(eq(users.id, a.userId));
    await setJob(a.jobId, { status: "en_route" });
    await drain();
    expect(await mailsTo("held@example.com")).toEqual([]);
    expect(await story(a.token, a.jobId)).toEqual([
      { channel: "email", kind: "en_route", status: "held", at: expect.any(String) },
    ]);
  });
});

const basic = (account: TwilioAccountInput) => `Basic ${btoa(`${account.accountSid}:${account.authToken}`)}`;

describe("a job's changes, as the triggers record them (migrations/0055)", () => {
  const changesOf = (jobId: string) =>
    db()
      .select({ change: jobChanges.change, status: jobChanges.status })
      .from(jobChanges)
      .where(eq(jobChanges.jobId, jobId))
      .all();

  it("are the statuses the one rule may tell of, and a move to another day, of a job with an address to tell", async () => {
    const a = await customerJob({ customerEmail: "recorded@example.com" });
    for (const status of JOB_STATUSES) await setJob(a.jobId, { status });
    expect((await changesOf(a.jobId)).map((c) => c.status)).toEqual([...TELLING_STATUSES]);
    await setJob(a.jobId, { date: addDays(dayOf(Date.now(), "UTC"), 1) });
    expect((await changesOf(a.jobId)).at(-1)).toEqual({ change: "date", status: "cancelled" });

    const silent = await customerJob({ customerEmail: undefined });
    await setJob(silent.jobId, { customerEmail: null });
    await setJob(silent.jobId, { status: "en_route" });
    expect(await changesOf(silent.jobId)).toEqual([]);
  });

  it("are all taken however many wait (rounds of 200, past D1's 100 bound values), each kind still once", async () => {
    const a = await customerJob({ customerEmail: "many@example.com" });
    const rows = Array.from({ length: 450 }, () => ({
      id: crypto.randomUUID(),
      workspaceId: a.workspaceId,
      jobId: a.jobId,
      change: "status" as const,
      status: "completed" as const,
    }));
    for (let i = 0; i < rows.length; i += 10)
      await db()
        .insert(jobChanges)
        .values(rows.slice(i, i + 10));
    await setJob(a.jobId, { status: "completed" });
    await drain();
    expect(await changesOf(a.jobId)).toEqual([]);
    expect((await mailsTo("many@example.com")).map((m) => m.subject)).toEqual(["Your visit is done"]);
  });

  it("are turned into messages by each workspace's own send, never another's, and then forgotten", async () => {
    const mine = await customerJob({ customerEmail: "mine@example.com" });
    const theirs = await customerJob({ customerEmail: "theirs@example.com" });
    await setJob(mine.jobId, { status: "en_route" });
    await setJob(theirs.jobId, { status: "en_route" });
    await sendJobMessages(db(), config(env), { workspaceId: mine.workspaceId });
    expect((await mailsTo("mine@example.com")).map((m) => m.subject)).toEqual(["Your visit is on its way"]);
    expect(await mailsTo("theirs@example.com")).toEqual([]);
    expect(await changesOf(mine.jobId)).toEqual([]);
    expect(await changesOf(theirs.jobId)).toHaveLength(1);
    await sendJobMessages(db(), config(env), { workspaceId: theirs.workspaceId });
    expect((await mailsTo("theirs@example.com")).map((m) => m.subject)).toEqual(["Your visit is on its way"]);
  });
});

describe("texts to a job's customer (Twilio faked at its HTTP boundary)", () => {
  it("go only where the workspace configured its own Twilio account: none, no text and customerSms false", async () => {
    const a = await customerJob({ customerEmail: "", customerPhone: "+13125550100" });
    const read = async () =>
      ((await (await call("/api/workspace/preferences", { token: a.token })).json()) as WorkspacePreferences)
        .customerSms;
    const texts = fakeTwilio();
    // Another workspace's account is no account of this one's.
    await customerJob({}, twilioAccount());
    await setJob(a.jobId, { status: "en_route", eta: Date.now() + 20 * 60_000 });
    await drain(withTwilio());
    expect(await read()).toBe(false);
    expect(texts).toEqual([]);
    expect(await story(a.token, a.jobId)).toEqual([]); // never sent, never recorded

    await setTwilio(a.token, twilioAccount());
    expect(await read()).toBe(true);
  });

  it("go through the workspace's account (its SID, Basic auth with its token, its number), each kind once, with a way to stop", async () => {
    const account = twilioAccount("+15005550006");
    const a = await customerJob({ customerEmail: "", customerPhone: "+13125550100" }, account);
    await setJob(a.jobId, { status: "en_route", eta: Date.now() + 20 * 60_000 });
    const texts = fakeTwilio();
    await sendJobMessages(db(), withTwilio());
    await sendJobMessages(db(), withTwilio());
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({
      to: "+13125550100",
      pathSid: account.accountSid,
      auth: basic(account),
      from: "+15005550006",
      messagingService: null,
      statusCallback: new URL(`/api/sms/status/${a.workspaceId}`, config(env).APP_URL).href,
    });
    expect(texts[0]!.body).toMatch(/^Workspace \S+: "Deliver the boiler" is on its way, expected at about/);
    expect(texts[0]!.body).toMatch(/\/track\/\S+\nNo more texts: http\S+\/unsubscribe\/\S+$/);
    expect(await story(a.token, a.jobId)).toEqual([
      { channel: "sms", kind: "en_route", status: "sent", at: expect.any(String) },
    ]);

    // The account removed: the next text is never sent nor recorded.
    expect((await call("/api/workspace/sms", { method: "DELETE", token: a.token })).status).toBe(200);
    await setJob(a.jobId, { status: "completed", completedAt: Date.now() });
    await drain(withTwilio());
    expect(texts).toHaveLength(1);
    expect(await story(a.token, a.jobId)).toHaveLength(1);
  });

  it("go from a Messaging Service when the workspace gave one instead of a number", async () => {
    const service = `MG${crypto.randomUUID().replace(/-/g, "")}`;
    const a = await customerJob({ customerEmail: "", customerPhone: "+13125550109" }, twilioAccount(service));
    const texts = fakeTwilio();
    await setJob(a.jobId, { status: "en_route" });
    await drain(withTwilio());
    expect(texts.map((t) => ({ from: t.from, messagingService: t.messagingService }))).toEqual([
      { from: null, messagingService: service },
    ]);
  });

  it("of each workspace go through its own account, never another's", async () => {
    const accountA = twilioAccount("+15005550001");
    const accountB = twilioAccount("+15005550002");
    const a = await customerJob({ customerEmail: "", customerPhone: "+13125550101" }, accountA);
    const b = await customerJob({ customerEmail: "", customerPhone: "+13125550102" }, accountB);
    const texts = fakeTwilio();
    await setJob(a.jobId, { status: "en_route" });
    await setJob(b.jobId, { status: "en_route" });
    await drain(withTwilio());
    const sentTo = (to: string) =>
      texts.filter((t) => t.to === to).map(({ pathSid, auth, from }) => ({ pathSid, auth, from }));
    expect(sentTo("+13125550101")).toEqual([
      { pathSid: accountA.accountSid, auth: basic(accountA), from: "+15005550001" },
    ]);
    expect(sentTo("+13125550102")).toEqual([
      { pathSid: accountB.accountSid, auth: basic(accountB), from: "+15005550002" },
    ]);
  });

  it("record a number that answered STOP as unsubscribed, and an undeliverable one as bounced", async () => {
    const stop = await customerJob({ customerEmail: "", customerPhone: "+13125550111" }, twilioAccount());
    const wrong = await customerJob({ customerEmail: "", customerPhone: "+13125550122" }, twilioAccount());
    const texts = fakeTwilio((to) =>
      to === "+13125550111"
        ? { status: 400, body: { code: 21610, message: "Attempt to send to unsubscribed recipient" } }
        : { status: 400, body: { code: 21614, message: "'To' number is not a valid mobile number" } },
    );
    await setJob(stop.jobId, { status: "en_route" });
    await setJob(wrong.jobId, { status: "en_route" });
    await drain(withTwilio());
    expect((await story(stop.token, stop.jobId))[0]!.status).toBe("unsubscribed");
    expect((await story(wrong.token, wrong.jobId))[0]!.status).toBe("bounced");
    const recorded = await db()
      .select()
      .from(customerRecipients)
      .where(
        and(eq(customerRecipients.workspaceId, stop.workspaceId), eq(customerRecipients.recipient, "+13125550111")),
      )
      .get();
    expect(recorded?.unsubscribedAt).not.toBeNull();
    // Unsubscribed here too: the next kind is not even asked of Twilio.
    await setJob(stop.jobId, { status: "completed", completedAt: Date.now() });
    await drain(withTwilio());
    expect(texts.filter((t) => t.to === "+13125550111")).toHaveLength(1);
  });

  it("try again after Twilio fails on its side, then hold the text", async () => {
    const a = await customerJob({ customerEmail: "", customerPhone: "+13125550133" }, twilioAccount());
    const texts = fakeTwilio(() => ({ status: 503, body: { message: "Service unavailable" } }));
    await setJob(a.jobId, { status: "en_route" });
    await drain(withTwilio());
    expect(texts).toHaveLength(3);
    expect(await story(a.token, a.jobId)).toEqual([
      { channel: "sms", kind: "en_route", status: "held", at: expect.any(String) },
    ]);
  });
});

/** A request through the real Worker with Twilio's API faked, its work after the answer waited for. */
async function callWithTwilio(path: string, init: RequestInit & { token?: string; form?: Record<string, string> }) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  const body = init.form ? new URLSearchParams(init.form) : init.body;
  return fetchWithEnv(new Request(`http://localhost${path}`, { ...init, headers, body }), { TWILIO_API_URL });
}

/** Twilio's signature of a request to `url` with `form` (its "Webhooks security"), computed here on its own. */
async function twilioSignature(url: string, form: Record<string, string>, authToken: string) {
  const data =
    url +
    Object.keys(form)
      .sort()
      .map((k) => k + form[k])
      .join("");
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(authToken),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(data)));
  return btoa(String.fromCharCode(...mac));
}

describe("Twilio's delivery reports", () => {
  it("turn a text that failed after Twilio took it into 'bounced'; one unsigned, forged or signed by another workspace's account changes nothing (403)", async () => {
    const account = twilioAccount();
    const a = await customerJob({ customerEmail: "", customerPhone: "+13125550144" }, account);
    const other = twilioAccount();
    const b = await customerJob({}, other);
    const texts = fakeTwilio();
    // Started through the API, as a driver's phone would: the route's own send texts the customer.
    const started = await callWithTwilio(`/api/jobs/${a.jobId}`, {
      method: "PATCH",
      token: a.token,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ status: "en_route" }),
    });
    expect(started.status).toBe(200);
    expect(texts).toHaveLength(1);
    const form = {
      MessageSid: "SM1",
      MessageStatus: "undelivered",
      ErrorCode: "30003",
      AccountSid: account.accountSid,
    };
    const path = `/api/sms/status/${a.workspaceId}`;
    const url = new URL(path, config(env).APP_URL).href;
    const report = (to: string, signature: string) =>
      callWithTwilio(to, { method: "POST", headers: { "X-Twilio-Signature": signature }, form });
    expect((await report(path, await twilioSignature(url, form, other.authToken))).status).toBe(403);
    expect((await report(path, "")).status).toBe(403);
    // Signed rightly by the other workspace for its own URL: its report reaches none of this workspace's texts.
    const otherPath = `/api/sms/status/${b.workspaceId}`;
    const otherUrl = new URL(otherPath, config(env).APP_URL).href;
    expect((await report(otherPath, await twilioSignature(otherUrl, form, other.authToken))).status).toBe(204);
    // The server-wide URL of before names no account: nothing answers there.
    expect((await report("/api/sms/status", await twilioSignature(url, form, account.authToken))).status).toBe(404);
    expect((await story(a.token, a.jobId))[0]!.status).toBe("sent");

    expect((await report(path, await twilioSignature(url, form, account.authToken))).status).toBe(204);
    expect(await story(a.token, a.jobId)).toEqual([
      { channel: "sms", kind: "en_route", status: "bounced", at: expect.any(String) },
    ]);
  });

  it("to a workspace without an account are refused (403)", async () => {
    const a = await userWithWorkspace();
    const form = { MessageSid: "SM1", MessageStatus: "failed" };
    const path = `/api/sms/status/${a.workspaceId}`;
    const signature = await twilioSignature(new URL(path, config(env).APP_URL).href, form, "0".repeat(32));
    const res = await callWithTwilio(path, { method: "POST", headers: { "X-Twilio-Signature": signature }, form });
    expect(res.status).toBe(403);
  });
});

/** The recorded commute moved to a stretch of one UTC day that has passed (party/jobs/job-tracking.worker.test.ts). */
const RECORDED_START = Date.parse("2026-10-13T12:50:00Z");
function commuteReports(deviceId: string): { reports: Report[]; day: string; at: (iso: string) => number } {
  const now = Date.now();
  let start = now - 50 * 60_000;
  if (dayOf(start, "UTC") !== dayOf(now, "UTC")) start = Date.parse(`${dayOf(now, "UTC")}T00:00:00Z`) - 12 * 3_600_000;
  const shift = start - RECORDED_START;
  const [header, ...lines] = commute.trim().split("\n");
  const columns = header!.split(",");
  const reports = lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    const r = parseOsmandParams({ id: deviceId, timestamp: params.time!, ...params });
    return { ...r, time: r.time + shift };
  });
  return { reports, day: dayOf(start, "UTC"), at: (iso) => Date.parse(iso) + shift };
}

async function drive(reports: Report[]) {
  for (let i = 0; i < reports.length; i += 10) await ingest(reports.slice(i, i + 10));
}

describe("messages as the vehicle drives", () => {
  it("are queued by the object's flush with the status, and sent by the object's alarm, off the report path", async () => {
    const a = await workspaceWithBeacon();
    await prefs(a.token, { customerMessages: ALL_ON });
    const { reports, day, at } = commuteReports(a.beacon.id);
    const jobId = await insertJob(a.workspaceId, {
      date: day,
      vehicleId: a.beacon.vehicleId,
      sequence: 1,
      title: "Coffee beans",
      latitude: 41.88339,
      longitude: -87.64741,
      radiusMeters: 100,
      customerEmail: "barista@example.com",
      createdByUserId: a.userId,
    });
    // On its way at 13:01 (party/jobs/job-tracking.worker.test.ts), there at 13:04:20, done by 13:12.
    await drive(reports.filter((r) => r.time < at("2026-10-13T13:03:00Z")));
    // The report path only marked the object's task due; its alarm sends (rung here, no cron's drain).
    await runObjectTasks(a.workspaceId, Date.now() + 5_000);
    expect((await mailsTo("barista@example.com")).map((m) => m.subject)).toEqual(["Your visit is on its way"]);
    await drive(reports.filter((r) => r.time >= at("2026-10-13T13:03:00Z")));
    await runObjectTasks(a.workspaceId, Date.now() + 5_000);
    expect((await mailsTo("barista@example.com")).map((m) => m.subject)).toEqual([
      "Your visit is on its way",
      "Your visit is done",
    ]);
    expect((await story(a.token, jobId)).map((m) => `${m.kind}:${m.status}`)).toEqual([
      "en_route:sent",
      "completed:sent",
    ]);
  });
});

describe("the tracking page's proof photo", () => {
  it("is offered after delivery only where the workspace shows it", async () => {
    const a = await customerJob({ customerEmail: "photo@example.com" });
    const upload = await call("/api/photos", {
      method: "POST",
      token: a.token,
      headers: { "Content-Type": "image/png" },
      body: PNG,
    });
    expect(upload.status).toBe(201);
    const { id: photoId } = (await upload.json()) as { id: string };
    const share = await call(`/api/jobs/${a.jobId}/shares`, { method: "POST", token: a.token, json: {} });
    const token = ((await share.json()) as { url: string }).url.split("/track/")[1]!;
    const tracked = async () => ((await (await call(`/api/track/${token}`)).json()) as TrackedJobAnswer).proofPhotoUrl;
    expect(await tracked()).toBeNull();
    expect((await call(`/api/track/${token}/photo`)).status).toBe(404);

    await call(`/api/jobs/${a.jobId}/complete`, { method: "POST", token: a.token, json: { photoIds: [photoId] } });
    expect(await tracked()).toBe(`/api/track/${token}/photo`);
    const photo = await call(`/api/track/${token}/photo`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG);

    await prefs(a.token, { customerMessages: { showProofPhoto: false } });
    expect(await tracked()).toBeNull();
    expect((await call(`/api/track/${token}/photo`)).status).toBe(404);
    await drain();
  });
});

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
