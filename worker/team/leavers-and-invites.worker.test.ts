import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { emailOutbox, memberships, reportSubscriptions, workspaces } from "../../db/schema";
import { config } from "../env";
import { sendDueReportEmails } from "../reports/scheduled-email";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";

/** Issue 34, findings 3 (invites are no mail relay) and 5 (leavers keep no side doors). */
const db = database(env.DB);
const invite = (token: string, workspaceId: string, email: string, role = "member") =>
  call(`/api/workspaces/${workspaceId}/invites`, { method: "POST", token, json: { email, role } });
const newEmail = () => `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
const mailsTo = (to: string) => db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).all();

describe("invitation e-mails", () => {
  it("keep the workspace's name out of the subject", async () => {
    const a = await userWithWorkspace();
    await db
      .update(workspaces)
      .set({ name: "URGENT verify payroll at https://evil.example/login" })
      .where(eq(workspaces.id, a.workspaceId));
    const to = newEmail();
    expect((await invite(a.token, a.workspaceId, to)).status).toBe(201);
    const [mail] = await mailsTo(to);
    expect(mail!.subject).toBe("You are invited to a workspace on Fleet Ops");
    expect(mail!.subject).not.toContain("evil");
  });

  it("to one address: 3 a day from one workspace (invites and resends together), then 429 JSON", async () => {
    const a = await userWithWorkspace();
    const to = newEmail();
    const first = await invite(a.token, a.workspaceId, to);
    const { id } = (await first.json()) as { id: string };
    expect(
      (await call(`/api/workspaces/${a.workspaceId}/invites/${id}/resend`, { method: "POST", token: a.token })).status,
    ).toBe(200);
    expect((await invite(a.token, a.workspaceId, to)).status).toBe(201);
    const refused = await invite(a.token, a.workspaceId, to);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({
      error: { code: "rate_limited", message: expect.stringContaining("At most 3 invitation e-mails a day") },
    });
    expect(await mailsTo(to)).toHaveLength(3);
  });

  it("to one address from many workspaces: 10 a day in all", async () => {
    const to = newEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const a = await userWithWorkspace();
      statuses.push((await invite(a.token, a.workspaceId, to)).status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  }, 30_000);

  it("per member 20 a day, per workspace 50 a day", async () => {
    const a = await userWithWorkspace();
    const admins = [a, await memberWithRole(a.workspaceId, "admin"), await memberWithRole(a.workspaceId, "admin")];
    const results: number[][] = [];
    for (const admin of admins) {
      const mine: number[] = [];
      for (let i = 0; i < 21; i++) mine.push((await invite(admin.token, a.workspaceId, newEmail())).status);
      results.push(mine);
    }
    // each member's 21st is refused; the workspace's 51st (the third admin's 11th) too
    expect(results[0]!.filter((s) => s === 201)).toHaveLength(20);
    expect(results[0]![20]).toBe(429);
    expect(results[1]!.filter((s) => s === 201)).toHaveLength(20);
    expect(results[2]!.filter((s) => s === 201)).toHaveLength(10);
    expect(results[2]!.slice(10).every((s) => s === 429)).toBe(true);
  }, 60_000);
});

describe("a removed member keeps no side doors", () => {
  it("an invite sent by an admin who is then removed no longer works; one from a demoted admin neither", async () => {
    const owner = await userWithWorkspace();
    const admin = await memberWithRole(owner.workspaceId, "admin");
    const demoted = await memberWithRole(owner.workspaceId, "admin");
    const to = newEmail();
    const other = newEmail();
    expect((await invite(admin.token, owner.workspaceId, to, "admin")).status).toBe(201);
    expect((await invite(demoted.token, owner.workspaceId, other, "admin")).status).toBe(201);
    const tokenOf = async (email: string) => (await mailsTo(email))[0]!.text.match(/\/invite\/([\w-]+)/)![1]!;
    const [link, otherLink] = [await tokenOf(to), await tokenOf(other)];

    expect(
      (
        await call(`/api/workspaces/${owner.workspaceId}/members/${admin.userId}`, {
          method: "DELETE",
          token: owner.token,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(`/api/workspaces/${owner.workspaceId}/members/${demoted.userId}`, {
          method: "PATCH",
          token: owner.token,
          json: { role: "member" },
        })
      ).status,
    ).toBe(200);

    expect((await call(`/api/invites/${link}`)).status).toBe(410);
    expect((await call(`/api/invites/${otherLink}`)).status).toBe(410);
    const pending = (await (
      await call(`/api/workspaces/${owner.workspaceId}/members`, { token: owner.token })
    ).json()) as { invites: { email: string }[] };
    expect(pending.invites.map((i) => i.email)).not.toContain(to);
  });

  it("a removed member's scheduled report subscription ends, and the cron sends nothing to a non-member", async () => {
    const owner = await userWithWorkspace();
    const leaver = await memberWithRole(owner.workspaceId, "member");
    const kept = await memberWithRole(owner.workspaceId, "viewer");
    for (const m of [leaver, kept])
      expect(
        (await call("/api/reports/subscription", { method: "PUT", token: m.token, json: { frequency: "daily" } }))
          .status,
      ).toBe(200);
    expect(
      (
        await call(`/api/workspaces/${owner.workspaceId}/members/${leaver.userId}`, {
          method: "DELETE",
          token: owner.token,
        })
      ).status,
    ).toBe(200);
    const mine = (userId: string) =>
      db
        .select()
        .from(reportSubscriptions)
        .where(and(eq(reportSubscriptions.workspaceId, owner.workspaceId), eq(reportSubscriptions.userId, userId)))
        .get();
    expect(await mine(leaver.userId)).toBeUndefined();

    // a subscription left from before removals ended them: the cron checks membership itself
    await db
      .insert(reportSubscriptions)
      .values({ workspaceId: owner.workspaceId, userId: leaver.userId, frequency: "daily" });
    await db
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, owner.workspaceId), eq(memberships.userId, kept.userId)));
    await db.insert(memberships).values({ workspaceId: owner.workspaceId, userId: kept.userId, role: "viewer" });
    await sendDueReportEmails(db, config(env), Date.now() + 2 * 86_400_000);
    expect(await mailsTo(leaver.email)).toEqual([]);
    expect((await mailsTo(kept.email)).length).toBe(1);
  });
});
