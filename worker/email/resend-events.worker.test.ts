import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customerRecipients, emailOutbox, jobMessages, jobs } from "../../db/schema";
import type { JobMessage } from "../../shared/jobs/customer-messages";
import { dayOf } from "../../shared/units/time-zone";
import { config } from "../env";
import { sendJobMessages } from "../jobs/customer-messages";
import { database } from "../test/db";
import { call, userWithWorkspace } from "../test/factories";
import { fetchWithEnv } from "../test/with-env";

// Bounces and complaints of mail to a job's customer, as Resend's webhook reports them (issue 53):
// signed the Svix way, computed here on its own from Resend's documentation.
const db = () => database(env.DB);
const SECRET = `whsec_${btoa("a test signing secret of 32 bytes")}`;

async function svixHeaders(body: string, secret = SECRET, sentS = Math.floor(Date.now() / 1000)) {
  const id = `msg_${crypto.randomUUID()}`;
  const keyBytes = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${sentS}.${body}`)));
  return {
    "svix-id": id,
    "svix-timestamp": String(sentS),
    "svix-signature": `v1,${btoa("not this one")} v1,${btoa(String.fromCharCode(...mac))}`,
  };
}

/** POST /api/email/events through the real Worker with the webhook secret configured (or none). */
async function postEvent(body: string, headers: Record<string, string>, secret = SECRET) {
  return fetchWithEnv(
    new Request("http://localhost/api/email/events", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
    }),
    { RESEND_WEBHOOK_SECRET: secret },
  );
}

/** A job whose customer has been e-mailed "on its way"; answers the message's provider id. */
async function mailedJob(customerEmail: string) {
  const a = await userWithWorkspace();
  const prefs = { customerMessages: { enRoute: true, completed: true } };
  expect((await call("/api/workspace/preferences", { method: "PATCH", token: a.token, json: prefs })).status).toBe(200);
  const res = await call("/api/jobs", {
    method: "POST",
    token: a.token,
    json: {
      title: "Deliver the boiler",
      date: dayOf(Date.now(), "UTC"),
      location: { latitude: 41.91, longitude: -87.66 },
      customerEmail,
    },
  });
  const { id: jobId } = (await res.json()) as { id: string };
  await db().update(jobs).set({ status: "en_route" }).where(eq(jobs.id, jobId));
  await sendJobMessages(db(), config(env));
  const row = await db().select().from(jobMessages).where(eq(jobMessages.jobId, jobId)).get();
  expect(row?.status).toBe("sent");
  return { ...a, jobId, providerId: row!.providerId! };
}

const story = async (token: string, jobId: string) =>
  ((await (await call(`/api/jobs/${jobId}`, { token })).json()) as { messages: JobMessage[] }).messages;

describe("Resend's events of mail to customers", () => {
  it("show a bounce on the job; an unsigned, forged, stale or unconfigured event changes nothing (403)", async () => {
    const a = await mailedJob("nobody@example.com");
    const outbox = await db().select().from(emailOutbox).where(eq(emailOutbox.to, "nobody@example.com")).all();
    expect(a.providerId).toBe(`outbox:${outbox[0]!.id}`);
    const body = JSON.stringify({
      type: "email.bounced",
      data: { email_id: a.providerId, to: ["nobody@example.com"] },
    });

    expect((await postEvent(body, {})).status).toBe(403);
    expect((await postEvent(body, await svixHeaders(body, `whsec_${btoa("someone else's secret")}`))).status).toBe(403);
    expect((await postEvent(body, await svixHeaders(body, SECRET, Math.floor(Date.now() / 1000) - 600))).status).toBe(
      403,
    );
    expect((await postEvent(body, await svixHeaders(body), "")).status).toBe(403);
    const tampered = body.replace("bounced", "delivered");
    expect((await postEvent(tampered, await svixHeaders(body))).status).toBe(403);
    expect((await story(a.token, a.jobId))[0]!.status).toBe("sent");

    const res = await postEvent(body, await svixHeaders(body));
    expect(res.status).toBe(204);
    expect(await story(a.token, a.jobId)).toEqual([
      { channel: "email", kind: "en_route", status: "bounced", at: expect.any(String) },
    ]);
  });

  it("unsubscribe an address that complained, so the workspace mails it no more", async () => {
    const a = await mailedJob("Grumpy@Example.com");
    const body = JSON.stringify({
      type: "email.complained",
      data: { email_id: a.providerId, to: ["grumpy@example.com"] },
    });
    expect((await postEvent(body, await svixHeaders(body))).status).toBe(204);
    expect((await story(a.token, a.jobId))[0]!.status).toBe("unsubscribed");
    const recipient = await db()
      .select({ at: customerRecipients.unsubscribedAt })
      .from(customerRecipients)
      .where(
        and(eq(customerRecipients.workspaceId, a.workspaceId), eq(customerRecipients.recipient, "grumpy@example.com")),
      )
      .get();
    expect(recipient?.at).not.toBeNull();

    await db().update(jobs).set({ status: "completed", completedAt: Date.now() }).where(eq(jobs.id, a.jobId));
    await sendJobMessages(db(), config(env));
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to, "grumpy@example.com")).all()).toHaveLength(1);
    expect((await story(a.token, a.jobId)).map((m) => [m.kind, m.status])).toEqual([
      ["en_route", "unsubscribed"],
      ["completed", "unsubscribed"],
    ]);
  });

  it("answer 204 to events of other mail and kinds, and 400 to a signed body that is not an event", async () => {
    const a = await mailedJob("fine@example.com");
    const delivered = JSON.stringify({ type: "email.delivered", data: { email_id: a.providerId } });
    expect((await postEvent(delivered, await svixHeaders(delivered))).status).toBe(204);
    const unknown = JSON.stringify({ type: "email.bounced", data: { email_id: "re_someone_elses" } });
    expect((await postEvent(unknown, await svixHeaders(unknown))).status).toBe(204);
    expect((await story(a.token, a.jobId))[0]!.status).toBe("sent");
    const notAnEvent = JSON.stringify({ hello: "world" });
    const res = await postEvent(notAnEvent, await svixHeaders(notAnEvent));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("bad_request");
  });
});
