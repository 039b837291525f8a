import { and, eq } from "drizzle-orm";
import { alertTypeLabels } from "../../shared/alerts/alert-rules";
import { alertJob, jobLabel, type AlertJob } from "../../shared/alerts/alerts";
import type { Db } from "../../db/client";
import { alertRules, alerts, places, users, vehicles } from "../../db/schema";
import { sendMemberMail } from "../email/member-mail";
import type { Config } from "../env";
import { targetsOf, type DeliveryMessage } from "./relay";
import { membersAmong } from "../team/members";
import { pushToMember } from "../push/send-push";
import { webhookSecret } from "./webhook-secret";
import { dateTimeText } from "../../shared/units/clock";
import { workspaceClock } from "../lib/workspace-time-zone";
import { webhookTargetProblem } from "./webhook-target";
import { SIGNATURE_HEADERS, signWebhook } from "./webhook-signature";

/**
 * One attempt to deliver one alert to one target (docs/decisions/0024). `sent` and `skipped`
 * are final; a thrown error is a failed attempt (the consumer retries it with backoff).
 */
export type SendOutcome = "sent" | "skipped";

/** The webhook's JSON body (docs/user-guide.md, "Draw places and get alerts", documents it). */
export interface AlertWebhookBody {
  id: string;
  type: "alert";
  workspaceId: string;
  alert: {
    id: string;
    type: string;
    ruleId: string;
    vehicleId: string;
    vehicleName: string | null;
    placeId: string | null;
    placeName: string | null;
    at: string;
    endAt: string | null;
    latitude: number;
    longitude: number;
    peak: number | null;
    /** job_late, job_arrived, job_completed: the job as it was when it happened; null otherwise */
    job: AlertJob | null;
  };
}

/** A target refused before any request: retrying cannot help, so the delivery is final (`dead`). */
export class RefusedTarget extends Error {}

/** A receiver that takes longer than this has failed this attempt. */
const WEBHOOK_TIMEOUT_MS = 15_000;

export async function sendDelivery(db: Db, config: Config, m: DeliveryMessage): Promise<SendOutcome> {
  const body = await alertBody(db, m);
  // the alert expired, or its rule was deleted or no longer names this target: nothing to send
  if (!body || !(await ruleStillTargets(db, m, body.alert.ruleId))) return "skipped";
  if (m.target.startsWith("webhook:")) return await postWebhook(db, config, m.target.slice("webhook:".length), body);
  return emailMember(db, config, m.target.slice("email:".length), m.workspaceId, body);
}

async function alertBody(db: Db, m: DeliveryMessage): Promise<AlertWebhookBody | null> {
  const row = await db
    .select({ alert: alerts, vehicleName: vehicles.name, placeName: places.name })
    .from(alerts)
    .leftJoin(vehicles, and(eq(vehicles.id, alerts.vehicleId), eq(vehicles.workspaceId, alerts.workspaceId)))
    .leftJoin(places, and(eq(places.id, alerts.placeId), eq(places.workspaceId, alerts.workspaceId)))
    .where(and(eq(alerts.id, m.alertId), eq(alerts.workspaceId, m.workspaceId), eq(alerts.deleted, false)))
    .get();
  if (!row) return null;
  const a = row.alert;
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    id: a.id,
    type: "alert",
    workspaceId: a.workspaceId,
    alert: {
      id: a.id,
      type: a.type,
      ruleId: a.ruleId,
      vehicleId: a.vehicleId,
      vehicleName: row.vehicleName,
      placeId: a.placeId,
      placeName: row.placeName,
      at: iso(a.at)!,
      endAt: iso(a.endAt),
      latitude: a.latitude,
      longitude: a.longitude,
      peak: a.peak,
      job: alertJob(a),
    },
  };
}

async function ruleStillTargets(db: Db, m: DeliveryMessage, ruleId: string): Promise<boolean> {
  const rule = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, ruleId), eq(alertRules.workspaceId, m.workspaceId), eq(alertRules.deleted, false)))
    .get();
  return !!rule && targetsOf(rule.config.notify).includes(m.target);
}

async function postWebhook(db: Db, config: Config, url: string, body: AlertWebhookBody): Promise<SendOutcome> {
  // checked again at every attempt: a rule stored before the check, or edited in D1, is refused too
  const problem = webhookTargetProblem(url, config.ENVIRONMENT);
  if (problem) throw new RefusedTarget(problem);
  const { secret } = await webhookSecret(db, config.WEBHOOK_SECRET_KEY, body.workspaceId);
  const json = JSON.stringify(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(url, {
    method: "POST",
    redirect: "manual",
    signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "FleetOps-Webhooks/1",
      [SIGNATURE_HEADERS.id]: body.id,
      [SIGNATURE_HEADERS.timestamp]: String(timestamp),
      [SIGNATURE_HEADERS.signature]: await signWebhook(secret, body.id, timestamp, json),
      "Idempotency-Key": body.id,
    },
    body: json,
  });
  await res.body?.cancel();
  if (res.status < 200 || res.status > 299) throw new Error(`receiver answered ${res.status}`);
  return "sent";
}

/** Only to someone who is a member of the workspace now: a member removed since gets nothing. */
async function emailMember(
  db: Db,
  config: Config,
  address: string,
  workspaceId: string,
  body: AlertWebhookBody,
): Promise<SendOutcome> {
  if (!(await membersAmong(db, workspaceId, [address])).has(address)) return "skipped";
  const a = body.alert;
  // On the workspace's clock, the zone named: the mail may be read anywhere (docs/decisions/0079).
  const clock = await workspaceClock(db, workspaceId);
  const when = (iso: string) => dateTimeText(Date.parse(iso), clock);
  const what = alertTypeLabels[a.type as keyof typeof alertTypeLabels] ?? a.type;
  const vehicle = a.vehicleName ?? "A vehicle";
  const about = a.job ? ` (${jobLabel(a.job)})` : a.placeName ? ` (${a.placeName})` : "";
  const lines = [
    `${what}: ${vehicle}${about}`,
    `When: ${when(a.at)}${a.endAt ? ` to ${when(a.endAt)}` : ""}`,
    `Where: ${a.latitude.toFixed(5)}, ${a.longitude.toFixed(5)}`,
    ...(a.peak !== null ? [a.type === "fuel_drop" ? `Lost: ${a.peak} L` : `Peak: ${a.peak}`] : []),
    "",
    `Open the Inbox: ${config.APP_URL}/inbox`,
  ];
  // The subject is the alert's type only: vehicle and place names are what members typed (issue 39).
  // Held (unconfirmed address, or past the workspace's daily share to it) counts as handed over:
  // the digest carries it (worker/email/member-mail.ts).
  await sendMemberMail(db, config, {
    to: address,
    subject: `Fleet Ops alert: ${what}`,
    text: lines.join("\n"),
    idempotencyKey: `alert-${a.id}-${address}`,
    senderKey: `workspace:${workspaceId}`,
    senderUserId: null,
    kind: "alert",
    digestLine: `${what}: ${vehicle}${about} at ${when(a.at)}`,
  });
  // The rule names this member: their phones get the alert too (issue 41, docs/decisions/0047).
  await pushAlert(db, config, address, workspaceId, {
    title: `${what}: ${vehicle}`,
    alertId: a.id,
    // the push's second line: which job ("#12 Deliver pallets") or place
    detail: a.job ? jobLabel(a.job) : a.placeName,
  });
  return "sent";
}

/** Best effort and after the e-mail: a failed push never makes the e-mail's delivery retry. */
async function pushAlert(
  db: Db,
  config: Config,
  address: string,
  workspaceId: string,
  alert: { title: string; alertId: string; detail: string | null },
) {
  try {
    const user = await db.select({ id: users.id }).from(users).where(eq(users.email, address)).get();
    if (!user) return;
    await pushToMember(
      db,
      config,
      { workspaceId, userId: user.id },
      { title: alert.title, body: alert.detail ?? "Open the Inbox", url: "/inbox", tag: `alert-${alert.alertId}` },
    );
  } catch (error) {
    console.error("alert push failed:", error);
  }
}
