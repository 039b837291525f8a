import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import { emailOutbox, heldMail, jobs, jobShares, rateLimits, users, workspaces } from "../../db/schema";
import type { CreatedJobShare, TrackedJobAnswer } from "../../shared/jobs/job-shares";
import { call, memberWithRole, report, userWithWorkspace, workspaceWithBeacon } from "../test/factories";
import { ingest } from "../test/ingest";
import { insertJob as insertJobRow, type JobFields } from "../test/jobs";
import { addDays, dayOf } from "../../shared/units/time-zone";

const db = () => database(env.DB);

/** Today's job at a Chicago address, from nine to eleven. */
const insertJob = (workspaceId: string, fields: Partial<JobFields> = {}) =>
  insertJobRow(workspaceId, {
    title: "Deliver the boiler",
    date: dayOf(Date.now(), "UTC"),
    latitude: 41.9104,
    longitude: -87.6676,
    windowStart: "09:00",
    windowEnd: "11:00",
    ...fields,
  });

const share = (token: string, jobId: string, json: unknown = {}) =>
  call(`/api/jobs/${jobId}/shares`, { method: "POST", token, json });
const tokenOf = (url: string) => url.split("/track/")[1]!;
const track = (token: string) => call(`/api/track/${token}`);

describe("a customer's link to a job", () => {
  it("shows the job's status, ETA and window and the vehicle approaching, nothing else of the workspace", async () => {
    const a = await workspaceWithBeacon();
    await ingest([report(a.beacon.id, Date.now() - 30_000, { latitude: 41.9, longitude: -87.66 })]);
    const eta = Date.now() + 600_000;
    const jobId = await insertJob(a.workspaceId, {
      vehicleId: a.beacon.vehicleId,
      status: "en_route",
      eta,
      notes: "Gate code 1234",
    });
    const res = await share(a.token, jobId);
    expect(res.status).toBe(201);
    const created = (await res.json()) as CreatedJobShare;
    expect(created.url).toMatch(/\/track\/[A-Za-z0-9_-]{20,}$/);
    expect(created.email).toBeNull();
    const shown = await track(tokenOf(created.url));
    expect(shown.status).toBe(200);
    const body = (await shown.json()) as TrackedJobAnswer;
    expect(body).toEqual({
      sender: expect.stringMatching(/^Workspace /),
      job: {
        title: "Deliver the boiler",
        status: "en_route",
        eta: new Date(eta).toISOString(),
        late: false,
        window: { start: "09:00", end: "11:00" },
        date: dayOf(Date.now(), "UTC"),
        arrivedAt: null,
        completedAt: null,
      },
      destination: { latitude: 41.9104, longitude: -87.6676, address: null },
      clock: { timeZone: "UTC", hourCycle: "h23" },
      vehicle: { name: expect.any(String), position: { latitude: 41.9, longitude: -87.66, at: expect.any(String) } },
      proofPhotoUrl: null,
    });
    expect(JSON.stringify(body)).not.toContain("Gate code");
  });

  it("names the sender's clock, so the page writes the ETA and the window alike (docs/decisions/0079)", async () => {
    const a = await userWithWorkspace();
    const jobId = await insertJob(a.workspaceId, { status: "en_route", eta: Date.now() + 600_000 });
    const token = tokenOf(((await (await share(a.token, jobId)).json()) as CreatedJobShare).url);
    const clockOf = async () => ((await (await track(token)).json()) as TrackedJobAnswer).clock;
    const prefs = (json: unknown) => call("/api/workspace/preferences", { method: "PATCH", token: a.token, json });
    await prefs({ timeZone: "America/Chicago" });
    expect(await clockOf()).toEqual({ timeZone: "America/Chicago", hourCycle: "h12" });
    await prefs({ hourCycle: "h23" });
    expect(await clockOf()).toEqual({ timeZone: "America/Chicago", hourCycle: "h23" });
  });

  it("ends 30 minutes after the job is completed (410), a day after it is cancelled; an unknown token is 404", async () => {
    const a = await userWithWorkspace();
    const completedAt = Date.now() - 10 * 60_000;
    const doneJob = await insertJob(a.workspaceId, {
      status: "completed",
      arrivedAt: completedAt - 60_000,
      completedAt,
    });
    const done = tokenOf(((await (await share(a.token, doneJob)).json()) as CreatedJobShare).url);
    expect((await track(done)).status).toBe(200);
    // The outcome and where it was, never the vehicle (issue 53).
    expect((await (await track(done)).json()) as TrackedJobAnswer).toMatchObject({
      job: {
        status: "completed",
        arrivedAt: new Date(completedAt - 60_000).toISOString(),
        completedAt: new Date(completedAt).toISOString(),
      },
      destination: { latitude: 41.9104, longitude: -87.6676 },
      vehicle: null,
    });
    await db()
      .update(jobs)
      .set({ completedAt: Date.now() - 31 * 60_000 })
      .where(eq(jobs.id, doneJob));
    const over = await track(done);
    expect(over.status).toBe(410);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe("track_ended");
    const called = await insertJob(a.workspaceId);
    const calledOff = tokenOf(((await (await share(a.token, called)).json()) as CreatedJobShare).url);
    // Cancelled: the customer is told so (issue 53), for a day; then the link ends.
    await db().update(jobs).set({ status: "cancelled", updatedAt: Date.now() }).where(eq(jobs.id, called));
    const cancelled = await track(calledOff);
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()) as TrackedJobAnswer).toMatchObject({ job: { status: "cancelled" }, vehicle: null });
    // A link that still answers is in the owners' list, to be ended there (docs/decisions/0072).
    const listed = async () =>
      (
        (await (await call(`/api/workspaces/${a.workspaceId}/shares`, { token: a.token })).json()) as {
          customerLinks: { jobId: string }[];
        }
      ).customerLinks.map((l) => l.jobId);
    expect(await listed()).toContain(called);
    await db()
      .update(jobs)
      .set({ updatedAt: Date.now() - 25 * 3_600_000 })
      .where(eq(jobs.id, called));
    expect((await track(calledOff)).status).toBe(410);
    expect(await listed()).not.toContain(called);
    expect((await track("no-such-token")).status).toBe(404);
    // a job finished long ago gets no new link
    expect((await share(a.token, doneJob)).status).toBe(409);
  });

  it("keeps only the token's hash, and expires after 7 days whatever the job does", async () => {
    const a = await userWithWorkspace();
    const jobId = await insertJob(a.workspaceId);
    const token = tokenOf(((await (await share(a.token, jobId)).json()) as CreatedJobShare).url);
    const rows = await db().select().from(jobShares).where(eq(jobShares.jobId, jobId)).all();
    expect(JSON.stringify(rows)).not.toContain(token);
    await db()
      .update(jobShares)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(jobShares.jobId, jobId));
    expect((await track(token)).status).toBe(410);
  });

  it("refuses bad input with the field named, viewers, and another workspace's job (404)", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await insertJob(a.workspaceId);
    const theirs = await insertJob(b.workspaceId);
    const noContact = await share(a.token, mine, { email: true });
    expect(noContact.status).toBe(400);
    expect(
      ((await noContact.json()) as { error: { fields: Record<string, string[]> } }).error.fields.email,
    ).toBeDefined();
    const bad = await share(a.token, mine, { email: "yes" });
    expect(bad.status).toBe(400);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await share(viewer.token, mine)).status).toBe(403);
    expect((await share(a.token, theirs)).status).toBe(404);
  });
});

/** Issue 51, finding 4: the vehicle only while it comes to this stop, on the job's own day. */
describe("the customer link shows the vehicle only while it is on its way or there, that day", () => {
  async function linkFor(fields: Partial<typeof jobs.$inferInsert>, timeZone = "UTC") {
    const a = await workspaceWithBeacon();
    await db().update(workspaces).set({ timeZone }).where(eq(workspaces.id, a.workspaceId));
    await ingest([report(a.beacon.id, Date.now() - 30_000, { latitude: 41.9, longitude: -87.66 })]);
    const jobId = await insertJob(a.workspaceId, { vehicleId: a.beacon.vehicleId, ...fields });
    const token = tokenOf(((await (await share(a.token, jobId)).json()) as CreatedJobShare).url);
    return async () => {
      const res = await track(token);
      expect(res.status).toBe(200);
      return ((await res.json()) as TrackedJobAnswer).vehicle;
    };
  }
  const today = () => dayOf(Date.now(), "UTC");

  it("a job six days ahead that is en route for someone else's stop: no vehicle", async () => {
    const vehicle = await linkFor({ status: "en_route", date: addDays(today(), 6) });
    expect(await vehicle()).toBeNull();
  });

  it("skipped, scheduled or yesterday's job: no vehicle; en route or arrived today: the vehicle", async () => {
    for (const fields of [
      { status: "skipped" as const, date: today() },
      { status: "scheduled" as const, date: today() },
      { status: "en_route" as const, date: addDays(today(), -1) },
    ])
      expect(await (await linkFor(fields))(), JSON.stringify(fields)).toBeNull();
    for (const status of ["en_route", "arrived"] as const)
      expect(await (await linkFor({ status, date: today() }))(), status).toMatchObject({
        position: { latitude: 41.9 },
      });
  });

  it("reads the job's day in the workspace's zone", async () => {
    // UTC+14 and UTC-11 are never on the same day.
    const ahead = "Pacific/Kiritimati";
    const shown = await linkFor({ status: "en_route", date: dayOf(Date.now(), ahead) }, ahead);
    expect(await shown()).not.toBeNull();
    const notToday = await linkFor({ status: "en_route", date: dayOf(Date.now(), "Pacific/Pago_Pago") }, ahead);
    expect(await notToday()).toBeNull();
  });
});

/** Issue 51, finding 5: mail to customers, who have no account, bounded and with a way out. */
describe("the customer link e-mailed to the job's customer", () => {
  const outbox = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).all();
  const mailed = async (token: string, jobId: string) =>
    ((await (await share(token, jobId, { email: true })).json()) as CreatedJobShare).email;
  const customerAddress = () => `customer-${crypto.randomUUID().slice(0, 8)}@example.com`;

  it("reaches a customer with no account, and answers an account's address exactly alike", async () => {
    const a = await userWithWorkspace("acme");
    const stranger = customerAddress();
    const account = customerAddress();
    await db().insert(users).values({ id: crypto.randomUUID(), email: account, emailConfirmedAt: Date.now() });
    const answers = [];
    for (const to of [stranger, account]) {
      const jobId = await insertJob(a.workspaceId, { customerEmail: to, title: "Your account is suspended, call 555" });
      answers.push(await mailed(a.token, jobId));
    }
    expect(answers).toEqual(["sent", "sent"]);
    const [toStranger, toAccount] = [(await outbox(stranger))[0]!, (await outbox(account))[0]!];
    expect(toStranger.subject).toBe(toAccount.subject);
    expect(toStranger.text.replace(/\/(track|unsubscribe)\/\S+/g, "")).toBe(
      toAccount.text.replace(/\/(track|unsubscribe)\/\S+/g, ""),
    );
    expect(await db().select().from(heldMail).where(eq(heldMail.recipient, stranger)).all()).toEqual([]);
  });

  it("keeps what members wrote out of the subject and names the sending workspace in the body", async () => {
    const a = await userWithWorkspace("acme");
    const to = customerAddress();
    const jobId = await insertJob(a.workspaceId, { customerEmail: to, title: "Your account is suspended, call 555" });
    expect(await mailed(a.token, jobId)).toBe("sent");
    const [mail] = await outbox(to);
    expect(mail!.subject).toBe("Follow your delivery");
    const workspace = await db().select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get();
    expect(mail!.text).toContain(`sent by "${workspace!.name}"`);
    expect(mail!.text).toContain(`"Your account is suspended, call 555"`);
  });

  it("honours a one-click unsubscribe for that workspace only", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const to = customerAddress();
    const jobA = await insertJob(a.workspaceId, { customerEmail: to });
    expect(await mailed(a.token, jobA)).toBe("sent");
    const [first] = await outbox(to);
    const target = /^<(.+)>$/.exec(first!.headers!["List-Unsubscribe"]!)![1]!;
    expect(first!.headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const pageToken = /\/unsubscribe\/(\S+)/.exec(first!.text)![1]!;
    const path = new URL(target).pathname;
    expect(path).toBe(`/api/unsubscribe/${pageToken}`);
    // Opening the page's link changes nothing; the one-click POST does.
    expect(await (await call(path)).json()).toEqual({ workspace: expect.any(String), unsubscribed: false });
    const click = await call(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(click.status).toBe(200);
    expect(await mailed(a.token, jobA)).toBe("unsubscribed");
    expect(await outbox(to)).toHaveLength(1);
    // Another workspace's mail to the same address still goes.
    expect(await mailed(b.token, await insertJob(b.workspaceId, { customerEmail: to }))).toBe("sent");
    expect((await call("/api/unsubscribe/no-such-token", { method: "POST" })).status).toBe(404);
  });

  it("sends one address at most 10 a day from one workspace, and a workspace at most 200 a day", async () => {
    const a = await userWithWorkspace();
    const to = customerAddress();
    const jobId = await insertJob(a.workspaceId, { customerEmail: to });
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await mailed(a.token, jobId));
    expect(answers.filter((x) => x === "sent")).toHaveLength(10);
    expect(answers.slice(10)).toEqual(["over_limit", "over_limit"]);
    expect(await outbox(to)).toHaveLength(10);

    const b = await userWithWorkspace();
    await db()
      .insert(rateLimits)
      .values({
        key: `customer-mail-ws:${b.workspaceId}`,
        windowStart: Date.now() - (Date.now() % 86_400_000),
        count: 200,
      });
    expect(await mailed(b.token, await insertJob(b.workspaceId, { customerEmail: customerAddress() }))).toBe(
      "over_limit",
    );
  });

  it("sends nothing while the member asking has not confirmed their own address", async () => {
    const a = await userWithWorkspace();
    await db().update(users).set({ emailConfirmedAt: null }).where(eq(users.id, a.userId));
    const to = customerAddress();
    expect(await mailed(a.token, await insertJob(a.workspaceId, { customerEmail: to }))).toBe("sender_unconfirmed");
    expect(await outbox(to)).toEqual([]);
  });
});
