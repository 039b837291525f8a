import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alertId } from "../../domain/alerts/evaluate";
import { appliesTo, type Alert, type AlertRule } from "../../shared/alert-rules";
import type { Db } from "../../db/client";
import { alertRules, alerts, beacons, telemetry } from "../../db/schema";
import { bumpVersion, versionOf } from "../../db/workspace-version";

/**
 * The two alerts a report cannot raise itself, raised by the cron from what ingestion already
 * keeps on each beacon (docs/decisions/0024), so ingestion pays nothing for them:
 * - beacon silent: no report for the rule's minutes. One alert per silence, dated at the last
 *   report (its id derives from rule, vehicle and that time, so the next minute's run finds it);
 *   it ends at the next report.
 * - device clock ahead: the beacon's latest reports were refused for a clock ahead of the
 *   server's. One alert per episode, dated at the first refusal the cron sees, its peak the
 *   largest skew in seconds; it ends once a report is accepted again, or the refusals stop for
 *   EPISODE_GAP_MS (then at the last one).
 * Both are rows of `alerts` like the others: synced to the Inbox, and delivered through the
 * outbox trigger. Returns the workspaces whose alerts changed, to announce.
 */
/** A silence older than this is not raised (alerts go after 90 days: a long-dead beacon is not raised again). */
const SILENCE_HORIZON_MS = 30 * 24 * 60 * 60_000;
/** As domain/alerts/evaluate.ts: refusals further apart than this are two episodes. */
const EPISODE_GAP_MS = 600_000;

type BeaconRow = {
  vehicleId: string;
  lastReportAt: number | null;
  lastRejectedAt: number | null;
  lastRejectedReason: string | null;
  clockSkewMs: number | null;
  latitude: number | null;
  longitude: number | null;
};

async function rulesOfType(db: Db, type: "beacon_silent" | "clock_ahead") {
  const rows = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.deleted, false), sql`json_extract(${alertRules.config}, '$.type') = ${type}`))
    .all();
  const byWorkspace = new Map<string, AlertRule[]>();
  for (const r of rows)
    byWorkspace.set(r.workspaceId, [...(byWorkspace.get(r.workspaceId) ?? []), { ...r.config, id: r.id }]);
  return byWorkspace;
}

function beaconsOf(db: Db, workspaceId: string) {
  return db
    .select({
      vehicleId: beacons.vehicleId,
      lastReportAt: beacons.lastReportAt,
      lastRejectedAt: beacons.lastRejectedAt,
      lastRejectedReason: beacons.lastRejectedReason,
      clockSkewMs: beacons.clockSkewMs,
      latitude: telemetry.latitude,
      longitude: telemetry.longitude,
    })
    .from(beacons)
    .leftJoin(
      telemetry,
      and(eq(telemetry.vehicleId, beacons.vehicleId), eq(telemetry.workspaceId, beacons.workspaceId)),
    )
    .where(eq(beacons.workspaceId, workspaceId))
    .all();
}

function openAlertsOf(db: Db, workspaceId: string, type: "beacon_silent" | "clock_ahead") {
  return db
    .select()
    .from(alerts)
    .where(
      and(eq(alerts.workspaceId, workspaceId), eq(alerts.type, type), isNull(alerts.endAt), eq(alerts.deleted, false)),
    )
    .all();
}

const newAlert = (rule: AlertRule, b: BeaconRow, at: number, peak: number | null): Alert => ({
  id: alertId(rule.id, b.vehicleId, at),
  type: rule.type,
  ruleId: rule.id,
  vehicleId: b.vehicleId,
  placeId: null,
  at,
  endAt: null,
  // where it was last seen (a device whose every report was refused has no position yet: 0, 0)
  latitude: b.latitude ?? 0,
  longitude: b.longitude ?? 0,
  peak,
});

/** What one workspace's run changes: alerts to open, and open ones to end or raise the peak of. */
interface Changes {
  opened: Alert[];
  updated: { id: string; endAt?: number; peak?: number }[];
}

function silenceChanges(
  rules: AlertRule[],
  rows: BeaconRow[],
  open: (typeof alerts.$inferSelect)[],
  now: number,
): Changes {
  const changes: Changes = { opened: [], updated: [] };
  const beaconOf = new Map(rows.map((b) => [b.vehicleId, b]));
  for (const a of open) {
    const last = beaconOf.get(a.vehicleId)?.lastReportAt;
    if (last != null && last > a.at) changes.updated.push({ id: a.id, endAt: last });
  }
  const known = new Set(open.map((a) => a.id));
  for (const rule of rules) {
    if (rule.type !== "beacon_silent") continue;
    for (const b of rows) {
      const last = b.lastReportAt;
      if (
        last == null ||
        !appliesTo(rule, b.vehicleId) ||
        now - last < rule.minutes * 60_000 ||
        now - last > SILENCE_HORIZON_MS
      )
        continue;
      const alert = newAlert(rule, b, last, null);
      if (!known.has(alert.id)) changes.opened.push(alert);
    }
  }
  return changes;
}

/** The beacon's latest report was refused for its clock, recently. */
const refusing = (b: BeaconRow, now: number) =>
  b.lastRejectedReason === "clock_ahead" &&
  b.lastRejectedAt != null &&
  now - b.lastRejectedAt < EPISODE_GAP_MS &&
  (b.lastReportAt ?? 0) <= b.lastRejectedAt;

function clockChanges(
  rules: AlertRule[],
  rows: BeaconRow[],
  open: (typeof alerts.$inferSelect)[],
  now: number,
): Changes {
  const changes: Changes = { opened: [], updated: [] };
  const beaconOf = new Map(rows.map((b) => [b.vehicleId, b]));
  const openOf = new Map(open.map((a) => [`${a.ruleId}\n${a.vehicleId}`, a]));
  for (const a of open) {
    const b = beaconOf.get(a.vehicleId);
    if (!b || refusing(b, now)) continue;
    const accepted = b.lastReportAt != null && b.lastRejectedAt != null && b.lastReportAt > b.lastRejectedAt;
    changes.updated.push({ id: a.id, endAt: (accepted ? b.lastReportAt : b.lastRejectedAt) ?? now });
  }
  for (const rule of rules) {
    for (const b of rows) {
      if (!appliesTo(rule, b.vehicleId) || !refusing(b, now)) continue;
      const peak = Math.round((b.clockSkewMs ?? 0) / 1000);
      const current = openOf.get(`${rule.id}\n${b.vehicleId}`);
      if (!current) changes.opened.push(newAlert(rule, b, b.lastRejectedAt!, peak));
      else if (peak > (current.peak ?? 0)) changes.updated.push({ id: current.id, peak });
    }
  }
  return changes;
}

/** One transaction per workspace that changed: its version bumped once, every row stamped with it. */
async function commit(db: Db, workspaceId: string, changes: Changes): Promise<boolean> {
  if (!changes.opened.length && !changes.updated.length) return false;
  const stamp = versionOf(workspaceId);
  const writes: BatchItem<"sqlite">[] = [bumpVersion(db, workspaceId)];
  for (const a of changes.opened)
    writes.push(
      db
        .insert(alerts)
        .values({ ...a, workspaceId, version: stamp })
        .onConflictDoNothing(),
    );
  for (const { id, ...set } of changes.updated) {
    writes.push(
      db
        .update(alerts)
        .set({ ...set, version: stamp })
        .where(and(eq(alerts.id, id), eq(alerts.workspaceId, workspaceId))),
    );
  }
  await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return true;
}

/** Run by the cron every minute; returns the workspaces to announce. */
export async function raiseBeaconAlerts(db: Db, now = Date.now()): Promise<string[]> {
  const [silent, clock] = await Promise.all([rulesOfType(db, "beacon_silent"), rulesOfType(db, "clock_ahead")]);
  const changed: string[] = [];
  for (const workspaceId of new Set([...silent.keys(), ...clock.keys()])) {
    const [rows, openSilent, openClock] = await Promise.all([
      beaconsOf(db, workspaceId),
      openAlertsOf(db, workspaceId, "beacon_silent"),
      openAlertsOf(db, workspaceId, "clock_ahead"),
    ]);
    const a = silenceChanges(silent.get(workspaceId) ?? [], rows, openSilent, now);
    const b = clockChanges(clock.get(workspaceId) ?? [], rows, openClock, now);
    if (await commit(db, workspaceId, { opened: [...a.opened, ...b.opened], updated: [...a.updated, ...b.updated] }))
      changed.push(workspaceId);
  }
  return changed;
}
