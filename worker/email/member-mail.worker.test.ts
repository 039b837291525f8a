import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { emailOutbox, heldMail, memberships, users } from "../../db/schema";
import { config } from "../env";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { insertIssue } from "../test/issues";
import { MAIL_PER_RECIPIENT_PER_SENDER, sendMailDigests } from "./member-mail";
import { releaseHeldMail } from "./release";

/**
 * Mail a member causes to someone else (issue 39, finding 2): no member's text in a subject, a
 * few a day per recipient from one sender (the rest in one digest), nothing to or from an
 * unconfirmed address until it is confirmed; confirmation by a link e-mailed at sign-up.
 */
const db = () => database(env.DB);
const cfg = () => config(env as never);
const mailTo = (address: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, address)).all();
const assign = (token: string, id: string, assigneeUserId: string) =>
  call(`/api/issues/${id}`, { method: "PATCH", token, json: { assigneeUserId } });
const ip = () => ({
  "CF-Connecting-IP": `10.39.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});
const DAY = 24 * 60 * 60 * 1000;

async function signUp(email: string) {
  const res = await call("/api/signup", { method: "POST", headers: ip(), json: { email, password: "long enough 39" } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** The confirmation link's token from the last e-mail to `email` (sent after sign-up's answer). */
async function confirmationToken(email: string) {
  for (let tries = 0; tries < 50; tries++) {
    const mail = (await mailTo(email)).find((m) => m.text.includes("/confirm-email/"));
    if (mail) return mail.text.match(/\/confirm-email\/(\S+)/)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no confirmation e-mail");
}

const confirm = (token: string) => call("/api/email/confirm", { method: "POST", json: { token } });
const unconfirm = (userId: string) => db().update(users).set({ emailConfirmedAt: null }).where(eq(users.id, userId));

describe("issue assignment mail", () => {
  it("keeps the member's title out of the subject (quoted in the body)", async () => {
    const a = await userWithWorkspace();
    const colleague = await memberWithRole(a.workspaceId, "member");
    const { id } = await insertIssue(a.workspaceId, { title: "Account locked - verify at evil.example" });
    expect((await assign(a.token, id, colleague.userId)).status).toBe(200);
    const [mail] = await mailTo(colleague.email);
    expect(mail!.subject).toBe("An issue was assigned to you on Fleet Ops");
    expect(mail!.subject).not.toContain("evil.example");
    expect(mail!.text).toContain('"Account locked - verify at evil.example"');
  });

  it("sends one recipient at most 5 a day from one sender; the rest go in one digest the next day", async () => {
    const a = await userWithWorkspace();
    const colleague = await memberWithRole(a.workspaceId, "member");
    const other = await memberWithRole(a.workspaceId, "admin");
    const vehicleId = await insertVehicle(a.workspaceId);
    for (let i = 0; i < 8; i++) {
      const { id } = await insertIssue(a.workspaceId, { vehicleId, title: `Job ${i}` });
      expect((await assign(a.token, id, colleague.userId)).status).toBe(200);
    }
    expect(await mailTo(colleague.email)).toHaveLength(MAIL_PER_RECIPIENT_PER_SENDER.max);
    // Another sender has their own share.
    const { id } = await insertIssue(a.workspaceId, { vehicleId, title: "From the admin" });
    expect((await assign(other.token, id, colleague.userId)).status).toBe(200);
    expect(await mailTo(colleague.email)).toHaveLength(MAIL_PER_RECIPIENT_PER_SENDER.max + 1);

    // Not today: the digest waits for the day to turn.
    await sendMailDigests(db(), cfg());
    expect(await mailTo(colleague.email)).toHaveLength(MAIL_PER_RECIPIENT_PER_SENDER.max + 1);
    expect(await sendMailDigests(db(), cfg(), Date.now() + DAY)).toBeGreaterThanOrEqual(1);
    const mails = await mailTo(colleague.email);
    const digest = mails.find((m) => m.subject === "Your Fleet Ops notifications");
    expect(digest!.text).toMatch(/^3 notifications/);
    for (const title of ["Job 5", "Job 6", "Job 7"]) expect(digest!.text).toContain(`"${title}"`);
    expect(await sendMailDigests(db(), cfg(), Date.now() + DAY)).toBe(0);
  });

  it("sends nothing to an address never confirmed; once it is, one digest carries what waited", async () => {
    const a = await userWithWorkspace();
    const email = `new-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = await signUp(email);
    const userId = (await db().select().from(users).where(eq(users.email, email)).get())!.id;
    await db().insert(memberships).values({ workspaceId: a.workspaceId, userId, role: "member" });
    const { id } = await insertIssue(a.workspaceId, { title: "Brakes" });
    expect((await assign(a.token, id, userId)).status).toBe(200);
    expect((await mailTo(email)).filter((m) => !m.text.includes("/confirm-email/"))).toEqual([]);
    expect(await db().select().from(heldMail).where(eq(heldMail.recipient, email)).all()).toHaveLength(1);

    expect((await call("/api/me", { token }).then((r) => r.json())) as unknown).toMatchObject({
      viewer: { emailConfirmed: false },
    });
    expect((await confirm(await confirmationToken(email))).status).toBe(200);
    await releaseHeldMail(db(), cfg());
    const digest = (await mailTo(email)).find((m) => m.subject === "Your Fleet Ops notifications");
    expect(digest!.text).toContain('"Brakes"');
    expect((await call("/api/me", { token }).then((r) => r.json())) as unknown).toMatchObject({
      viewer: { emailConfirmed: true },
    });
  });
});

describe("a sender who has not confirmed their address", () => {
  it("uses the product, but their invites and assignments wait until they confirm, then go", async () => {
    const email = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    let token = await signUp(email);
    const created = await call("/api/workspaces", { method: "POST", token, json: { name: "Unconfirmed fleet" } });
    expect(created.status).toBe(201);
    const workspaceId = ((await created.json()) as { id: string }).id;
    token = (
      (await (await call("/api/workspaces/session", { method: "POST", token, json: { workspaceId } })).json()) as {
        token: string;
      }
    ).token;
    const invitee = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await call(`/api/workspaces/${workspaceId}/invites`, {
      method: "POST",
      token,
      json: { email: invitee, role: "member" },
    });
    expect(invited.status).toBe(201);
    expect(await mailTo(invitee)).toEqual([]);
    const colleague = await memberWithRole(workspaceId, "member");
    const { id } = await insertIssue(workspaceId, { title: "Mirror" });
    expect((await assign(token, id, colleague.userId)).status).toBe(200);
    expect(await mailTo(colleague.email)).toEqual([]);

    expect((await confirm(await confirmationToken(email))).status).toBe(200);
    await releaseHeldMail(db(), cfg());
    const [invitation] = await mailTo(invitee);
    const link = invitation!.text.match(/\/invite\/([\w-]+)/)![1]!;
    expect((await call(`/api/invites/${link}`)).status).toBe(200);
    expect((await mailTo(colleague.email)).map((m) => m.subject)).toEqual(["Your Fleet Ops notifications"]);
  });
});

describe("confirming an address", () => {
  it("answers 400 with the field for a bad link, and 409 to Resend once confirmed", async () => {
    const res = await confirm("not-a-real-token");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields.token).toBeDefined();
    expect((await call("/api/email/confirm", { method: "POST", json: {} })).status).toBe(400);
    const email = `resend-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = await signUp(email);
    const first = await confirmationToken(email);
    expect((await call("/api/email/confirm/resend", { method: "POST", token })).status).toBe(200);
    expect((await mailTo(email)).filter((m) => m.text.includes("/confirm-email/"))).toHaveLength(2);
    expect((await confirm(first)).status).toBe(200);
    expect((await call("/api/email/confirm/resend", { method: "POST", token })).status).toBe(409);
  });

  it("password reset mail to one's own unconfirmed address still goes", async () => {
    const email = `forgot-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await signUp(email);
    const row = (await db().select().from(users).where(eq(users.email, email)).get())!;
    await unconfirm(row.id);
    expect((await call("/api/password/forgot", { method: "POST", headers: ip(), json: { email } })).status).toBe(200);
    await expect.poll(async () => (await mailTo(email)).some((m) => m.text.includes("/reset-password"))).toBe(true);
  });
});
