import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issueKey, packId, type IssueJson } from "../../shared/maintenance/issues";
import { database } from "../../db/client";
import { emailOutbox, issueNotifications, issues } from "../../db/schema";
import { config } from "../env";
import { sendIssueNotifications } from "../maintenance/issue-notifications";
import { IssueRefused, openIssue, resolveIssuesStatements } from "../maintenance/issues";
import { bumpVersion, versionOf } from "../test/db";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { insertIssue, issueRow } from "../test/issues";
import { pushMutations as push, pullPatch } from "../test/sync";

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string[]> } };

const report = (token: string, json: unknown) => call("/api/issues", { method: "POST", token, json });
const patch = (token: string, id: string, json: unknown) => call(`/api/issues/${id}`, { method: "PATCH", token, json });
const issuesOf = async (workspaceId: string) =>
  database(env.DB).select().from(issues).where(eq(issues.workspaceId, workspaceId)).all();
const mailTo = async (address: string) =>
  database(env.DB).select().from(emailOutbox).where(eq(emailOutbox.to, address)).all();

const pull = (token: string, cookie: unknown = null) =>
  pullPatch<{ op: string; key: string; value?: Record<string, unknown> }[]>(token, cookie);

describe("issues API", () => {
  it("reports an issue numbered per workspace (#1, #2 ...), open, reported by the caller", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const first = await report(a.token, {
      vehicleId,
      title: "Brake light out",
      priority: "high",
      dueDate: "2026-12-31",
    });
    expect(first.status).toBe(201);
    const issue = (await first.json()) as IssueJson;
    expect(issue).toMatchObject({
      number: 1,
      status: "open",
      priority: "high",
      vehicleId,
      title: "Brake light out",
      reportedByUserId: a.userId,
      dueDate: "2026-12-31",
      assigneeUserId: null,
    });
    expect(Date.parse(issue.createdAt)).toBeGreaterThan(0);
    expect(
      ((await (await report(a.token, { vehicleId, title: "Wiper torn", priority: "low" })).json()) as IssueJson).number,
    ).toBe(2);

    const b = await userWithWorkspace();
    const theirs = await report(b.token, {
      vehicleId: await insertVehicle(b.workspaceId),
      title: "Horn",
      priority: "medium",
    });
    expect(((await theirs.json()) as IssueJson).number).toBe(1);
  });

  it("numbers concurrent reports without a gap or a duplicate", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => report(a.token, { vehicleId, title: `Defect ${i}`, priority: "low" })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const numbers = (await issuesOf(a.workspaceId)).map((r) => r.number).sort((x, y) => x - y);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("refuses bad fields with 400 and field errors, writing nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const bad = await report(a.token, { vehicleId, title: " ", priority: "urgent", dueDate: "2026-02-30" });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as ErrorBody;
    expect(body.error.code).toBe("invalid_input");
    expect(Object.keys(body.error.fields ?? {}).sort()).toEqual(["dueDate", "priority", "title"]);

    const stranger = await userWithWorkspace();
    const notMember = await report(a.token, {
      vehicleId,
      title: "Leak",
      priority: "low",
      assigneeUserId: stranger.userId,
    });
    expect(notMember.status).toBe(400);
    expect(((await notMember.json()) as ErrorBody).error.fields?.assigneeUserId).toBeDefined();
    expect(await issuesOf(a.workspaceId)).toEqual([]);
    expect(
      await database(env.DB)
        .select()
        .from(issueNotifications)
        .where(eq(issueNotifications.workspaceId, a.workspaceId))
        .all(),
    ).toEqual([]);
  });

  it("keeps workspaces apart: another workspace's vehicle or issue is a 404, never listed", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const { id } = await insertIssue(a.workspaceId);
    expect(
      (await report(b.token, { vehicleId: await insertVehicle(a.workspaceId), title: "x", priority: "low" })).status,
    ).toBe(404);
    expect((await call(`/api/issues/${id}`, { token: b.token })).status).toBe(404);
    expect((await patch(b.token, id, { status: "closed" })).status).toBe(404);
    expect(
      (await call(`/api/issues/${id}/comments`, { method: "POST", token: b.token, json: { text: "mine" } })).status,
    ).toBe(404);
    expect(((await (await call("/api/issues", { token: b.token })).json()) as { issues: unknown[] }).issues).toEqual(
      [],
    );
    // a photo of another workspace cannot be attached
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    const photo = (await (
      await call("/api/photos", { method: "POST", token: a.token, body: png, headers: { "Content-Type": "image/png" } })
    ).json()) as { id: string };
    expect(
      (
        await report(b.token, {
          vehicleId: await insertVehicle(b.workspaceId),
          title: "x",
          priority: "low",
          photoIds: [photo.id],
        })
      ).status,
    ).toBe(404);
    expect((await patch(a.token, id, { photoIds: [photo.id] })).status).toBe(200);
    expect((await issueRow(id))?.status).toBe("open");
    expect((await pull(b.token)).patch.some((p) => p.key?.startsWith("issue"))).toBe(false);
  });

  it("lets viewers read but not report, change or comment (403)", async () => {
    const a = await userWithWorkspace();
    const { id, vehicleId } = await insertIssue(a.workspaceId);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await report(viewer.token, { vehicleId, title: "x", priority: "low" })).status).toBe(403);
    expect((await patch(viewer.token, id, { status: "closed" })).status).toBe(403);
    expect(
      (await call(`/api/issues/${id}/comments`, { method: "POST", token: viewer.token, json: { text: "hi" } })).status,
    ).toBe(403);
    expect((await call(`/api/issues/${id}`, { token: viewer.token })).status).toBe(200);
    const member = await memberWithRole(a.workspaceId, "member");
    expect((await patch(member.token, id, { status: "in_progress" })).status).toBe(200);
  });

  it("changes status and assignee, e-mails the new assignee, and keeps comments", async () => {
    const a = await userWithWorkspace();
    const mechanic = await memberWithRole(a.workspaceId, "member", "mechanic");
    const { id } = await insertIssue(a.workspaceId, { description: "Rear left", dueDate: "2026-12-01" });
    const changed = await patch(a.token, id, {
      status: "in_progress",
      assigneeUserId: mechanic.userId,
      priority: "critical",
    });
    expect(changed.status).toBe(200);
    // what the PATCH does not name is kept
    expect(await changed.json()).toMatchObject({
      status: "in_progress",
      assigneeUserId: mechanic.userId,
      priority: "critical",
      description: "Rear left",
      dueDate: "2026-12-01",
      title: "Flat tyre",
    });
    const mail = await mailTo(mechanic.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("An issue was assigned to you on Fleet Ops");
    expect(mail[0]!.text).toContain('Title: "Flat tyre"');
    expect(mail[0]!.text).toContain(`/issues/${id}`);
    // The same assignee again: no second e-mail.
    await patch(a.token, id, { assigneeUserId: mechanic.userId });
    expect(await mailTo(mechanic.email)).toHaveLength(1);

    const comment = await call(`/api/issues/${id}/comments`, {
      method: "POST",
      token: mechanic.token,
      json: { text: "Part ordered" },
    });
    expect(comment.status).toBe(201);
    expect(await comment.json()).toMatchObject({ issueId: id, authorUserId: mechanic.userId, text: "Part ordered" });
    const detail = (await (await call(`/api/issues/${id}`, { token: a.token })).json()) as IssueJson & {
      comments: { text: string }[];
    };
    expect(detail.comments.map((c) => c.text)).toEqual(["Part ordered"]);
    expect(
      (await call(`/api/issues/${id}/comments`, { method: "POST", token: a.token, json: { text: "" } })).status,
    ).toBe(400);
  });

  it("lists with the status, vehicle and assignee filters", async () => {
    const a = await userWithWorkspace();
    const other = await memberWithRole(a.workspaceId, "member");
    await insertIssue(a.workspaceId, { title: "Truck", assigneeUserId: other.userId });
    const van = await insertIssue(a.workspaceId, { title: "Van" });
    await patch(a.token, van.id, { status: "closed" });
    const list = async (q: string) =>
      ((await (await call(`/api/issues${q}`, { token: a.token })).json()) as { issues: IssueJson[] }).issues.map(
        (i) => i.title,
      );
    expect(await list("")).toEqual(["Van", "Truck"]);
    expect(await list("?status=open")).toEqual(["Truck"]);
    expect(await list("?status=closed")).toEqual(["Van"]);
    expect(await list(`?vehicleId=${van.vehicleId}`)).toEqual(["Van"]);
    expect(await list(`?assigneeUserId=${other.userId}`)).toEqual(["Truck"]);
    expect((await call("/api/issues?status=gone", { token: a.token })).status).toBe(400);
  });
});

describe("issues through sync", () => {
  it("a member's offline report reaches the server numbered, reported by the caller whatever the browser claimed", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await insertVehicle(a.workspaceId);
    const id = crypto.randomUUID();
    const commentId = crypto.randomUUID();
    const answer = await push(member.token, [
      {
        name: "createIssue",
        args: {
          id,
          vehicleId,
          title: "Seat belt frayed",
          priority: "high",
          reportedByUserId: a.userId,
          assigneeUserId: a.userId,
        },
      },
      { name: "addIssueComment", args: { id: commentId, issueId: id, text: "Seen at the depot" } },
      { name: "updateIssue", args: { id, status: "in_progress" } },
    ]);
    expect(answer.refused).toBeUndefined();
    expect(await issueRow(id)).toMatchObject({
      number: 1,
      reportedByUserId: member.userId,
      status: "in_progress",
      assigneeUserId: a.userId,
    });
    // the assignment's e-mail is queued with it, and sent after the push (here: by the cron's round)
    await sendIssueNotifications(database(env.DB), config(env as never), { workspaceId: a.workspaceId });
    // (the push's own send may still be under way: it claimed the row first)
    const toOwner = () => database(env.DB).select().from(emailOutbox).where(eq(emailOutbox.to, a.email)).all();
    await expect.poll(async () => (await toOwner()).some((m) => m.text.includes("Issue #1 in"))).toBe(true);

    const keys = (await pull(a.token)).patch.map((p) => p.key);
    expect(keys).toContain(issueKey(id));
    expect(keys).toContain(`issue-comment/${id}/${commentId}`);
  });

  it("refuses, writing nothing: an assignee who is not a member, another workspace's issue or vehicle", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const theirs = await insertIssue(b.workspaceId);
    const id = crypto.randomUUID();
    await push(a.token, [
      { name: "createIssue", args: { id, vehicleId, title: "x", priority: "low", assigneeUserId: b.userId } },
      {
        name: "createIssue",
        args: { id: crypto.randomUUID(), vehicleId: theirs.vehicleId, title: "x", priority: "low" },
      },
      { name: "updateIssue", args: { id: theirs.id, status: "closed" } },
      { name: "addIssueComment", args: { id: crypto.randomUUID(), issueId: theirs.id, text: "mine" } },
      { name: "createIssue", args: { id: theirs.id, vehicleId, title: "take over", priority: "low" } },
    ]);
    expect(await issuesOf(a.workspaceId)).toEqual([]);
    expect(await issueRow(theirs.id)).toMatchObject({ status: "open", workspaceId: b.workspaceId, title: "Flat tyre" });
  });

  it("syncs open issues and recent changes; old resolved and closed ones stay on the server", async () => {
    const a = await userWithWorkspace();
    const open = await insertIssue(a.workspaceId, { title: "Brake light out", reportedByUserId: a.userId });
    const closedLongAgo = await insertIssue(a.workspaceId, { title: "Closed long ago" });
    const closedToday = await insertIssue(a.workspaceId, { title: "Closed today" });
    const db = database(env.DB);
    await db
      .update(issues)
      .set({ status: "closed", updatedAt: Date.now() - 30 * 86_400_000 })
      .where(eq(issues.id, closedLongAgo.id));
    await db.update(issues).set({ status: "closed" }).where(eq(issues.id, closedToday.id));
    const first = await pull(a.token);
    const keys = first.patch.map((p) => p.key);
    expect(keys).toContain(issueKey(open.id));
    expect(keys).toContain(issueKey(closedToday.id));
    expect(keys).not.toContain(issueKey(closedLongAgo.id));
    // an open issue stays small in the first sync: its key and vehicle (packed ids), title, number and time (ADR 0034)
    const put = first.patch.find((p) => p.key === issueKey(open.id))!;
    expect(put.value).toEqual({ n: 1, v: packId(open.vehicleId), t: "Brake light out", c: expect.any(Number) });

    // a device that holds the open issue hears it close
    await patch(a.token, open.id, { status: "closed" });
    const next = await pull(a.token, first.cookie);
    expect(next.patch.find((p) => p.key === issueKey(open.id))?.value).toMatchObject({ s: 3 });
  });
});

describe("the first sync's cost of open issues", () => {
  it("grows by at most 150 B per open issue (packed key and vehicle id, a title, no reporter); closed ones older than a week cost nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const size = async () => JSON.stringify(await pull(a.token)).length;
    const before = await size();
    for (let i = 0; i < 20; i++)
      await insertIssue(a.workspaceId, { vehicleId, title: `Brake light ${100 + i}`, reportedByUserId: a.userId });
    const perIssue = ((await size()) - before) / 20;
    console.log(`first sync: ${perIssue} B per open issue`);
    expect(perIssue).toBeLessThanOrEqual(150);
    // A long description stays on the server (a marker travels); the page reads it with the reporter.
    const long = await insertIssue(a.workspaceId, {
      vehicleId,
      title: "Oil leak",
      description: "Drips under the engine after a long run; seen twice this week.",
      reportedByUserId: a.userId,
    });
    const put = (await pull(a.token)).patch.find((p) => p.key === issueKey(long.id))!;
    expect(put.value).toEqual({ n: 21, v: packId(vehicleId), t: "Oil leak", dl: 1, c: expect.any(Number) });
    const detail = (await (await call(`/api/issues/${long.id}`, { token: a.token })).json()) as IssueJson;
    expect(detail).toMatchObject({
      description: "Drips under the engine after a long run; seen twice this week.",
      reportedByUserId: a.userId,
    });

    await database(env.DB)
      .update(issues)
      .set({ status: "closed", updatedAt: Date.now() - 8 * 86_400_000 })
      .where(eq(issues.workspaceId, a.workspaceId));
    expect((await pull(a.token)).patch.some((p) => p.key?.startsWith("issue/"))).toBe(false);
  });
});

describe("the server-side issue functions (for inspections and service entries)", () => {
  it("openIssue opens an issue linked to its source; resolveIssuesStatements resolves only this workspace's, or nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const w = { env: env as never, db: database(env.DB), waitUntil: () => undefined };
    const inspectionId = crypto.randomUUID();
    const opened = await openIssue(w, a.workspaceId, {
      vehicleId,
      title: "Tyres: failed",
      priority: "high",
      reportedByUserId: a.userId,
      sourceInspectionId: inspectionId,
    });
    expect(opened).toMatchObject({ number: 1, status: "open", sourceInspectionId: inspectionId });
    await expect(
      openIssue(w, b.workspaceId, { vehicleId, title: "x", priority: "low", reportedByUserId: b.userId }),
    ).rejects.toBeInstanceOf(IssueRefused);

    const foreign = await insertIssue(b.workspaceId);
    await expect(resolveIssuesStatements(w.db, a.workspaceId, [opened.id, foreign.id])).rejects.toMatchObject({
      status: 404,
    });
    const db = w.db;
    const statements = await resolveIssuesStatements(db, a.workspaceId, [opened.id], { serviceEntryId: "entry-1" });
    await db.batch([bumpVersion(db, a.workspaceId), ...statements(versionOf(a.workspaceId))]);
    expect(await issueRow(opened.id)).toMatchObject({ status: "resolved", resolvedByServiceEntryId: "entry-1" });
  });
});
