import { alertId } from "./evaluate";
import { appliesTo, type Alert, type AlertRule } from "../../shared/alerts/alert-rules";

/**
 * What a beacon's silence decides, from what ingestion keeps on each beacon (docs/decisions/0024,
 * 0059): the workspace object's beacon-watch job applies these at each deadline, so ingestion pays
 * nothing for them and no clock scans D1.
 * - inactive: a beacon silent for INACTIVE_AFTER_MS stops being ACTIVE (its next report makes it
 *   ACTIVE again, written by the object's flush).
 * - beacon silent: no report for the rule's minutes. One alert per silence, dated at the last
 *   report (its id derives from rule, vehicle and that time); it ends at the next report.
 * - device clock ahead: the beacon's latest reports were refused for a clock ahead of the
 *   server's. One alert per episode, dated at the first refusal seen, its peak the largest skew
 *   in seconds; it ends once a report is accepted again, or the refusals stop for EPISODE_GAP_MS.
 */

/** Beacons silent for this long stop being ACTIVE. */
export const INACTIVE_AFTER_MS = 15 * 60_000;
/** A silence older than this is not raised (alerts go after 90 days: a long-dead beacon is not raised again). */
export const SILENCE_HORIZON_MS = 30 * 24 * 60 * 60_000;
/** As domain/alerts/evaluate.ts: refusals further apart than this are two episodes. */
export const EPISODE_GAP_MS = 600_000;
/**
 * Deadlines are rounded up to this, so a fleet's many beacons share a few alarms: 10,000 vehicles
 * that stop within the same minute cost one alarm, not 10,000 (a silence is noticed up to this late).
 */
export const DEADLINE_GROUP_MS = 60_000;

/** One vehicle's beacon as the watch sees it (the latest report of its devices). */
export interface WatchedBeacon {
  vehicleId: string;
  lastReportAt: number | null;
  lastRejectedAt: number | null;
  lastRejectedReason: string | null;
  clockSkewMs: number | null;
  /** Where it was last seen (null: every report refused so far). */
  latitude: number | null;
  longitude: number | null;
}

/** An open beacon_silent or clock_ahead alert, as much of it as the rules read. */
export interface OpenBeaconAlert {
  id: string;
  ruleId: string;
  vehicleId: string;
  at: number;
  peak: number | null;
}

/** What one run changes: alerts to open, and open ones to end or raise the peak of. */
export interface AlertChanges {
  opened: Alert[];
  updated: { id: string; endAt?: number; peak?: number }[];
}

const newAlert = (rule: AlertRule, b: WatchedBeacon, at: number, peak: number | null): Alert => ({
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

/** Whether the beacon counts as silent for inactivity at `now`. */
export const isInactive = (b: WatchedBeacon, now: number) =>
  b.lastReportAt !== null && now - b.lastReportAt >= INACTIVE_AFTER_MS;

/** beacon_silent: silences past a rule's minutes open an alert; a report after an open one ends it. */
export function silenceChanges(
  rules: readonly AlertRule[],
  beacons: readonly WatchedBeacon[],
  open: readonly OpenBeaconAlert[],
  now: number,
): AlertChanges {
  const changes: AlertChanges = { opened: [], updated: [] };
  const beaconOf = new Map(beacons.map((b) => [b.vehicleId, b]));
  for (const a of open) {
    const last = beaconOf.get(a.vehicleId)?.lastReportAt;
    if (last != null && last > a.at) changes.updated.push({ id: a.id, endAt: last });
  }
  const known = new Set(open.map((a) => a.id));
  for (const rule of rules) {
    if (rule.type !== "beacon_silent") continue;
    for (const b of beacons) {
      const last = b.lastReportAt;
      if (last == null || !appliesTo(rule, b.vehicleId)) continue;
      if (now - last < rule.minutes * 60_000 || now - last > SILENCE_HORIZON_MS) continue;
      const alert = newAlert(rule, b, last, null);
      if (!known.has(alert.id)) changes.opened.push(alert);
    }
  }
  return changes;
}

/** The beacon's latest report was refused for its clock, recently. */
export const isRefusing = (b: WatchedBeacon, now: number) =>
  b.lastRejectedReason === "clock_ahead" &&
  b.lastRejectedAt != null &&
  now - b.lastRejectedAt < EPISODE_GAP_MS &&
  (b.lastReportAt ?? 0) <= b.lastRejectedAt;

/** clock_ahead: an episode of refusals opens one alert (its peak raised as the skew grows); it ends when they stop. */
export function clockChanges(
  rules: readonly AlertRule[],
  beacons: readonly WatchedBeacon[],
  open: readonly OpenBeaconAlert[],
  now: number,
): AlertChanges {
  const changes: AlertChanges = { opened: [], updated: [] };
  const beaconOf = new Map(beacons.map((b) => [b.vehicleId, b]));
  const openOf = new Map(open.map((a) => [`${a.ruleId}\n${a.vehicleId}`, a]));
  for (const a of open) {
    const b = beaconOf.get(a.vehicleId);
    if (!b || isRefusing(b, now)) continue;
    const accepted = b.lastReportAt != null && b.lastRejectedAt != null && b.lastReportAt > b.lastRejectedAt;
    changes.updated.push({ id: a.id, endAt: (accepted ? b.lastReportAt : b.lastRejectedAt) ?? now });
  }
  for (const rule of rules) {
    if (rule.type !== "clock_ahead") continue;
    for (const b of beacons) {
      if (!appliesTo(rule, b.vehicleId) || !isRefusing(b, now)) continue;
      const peak = Math.round((b.clockSkewMs ?? 0) / 1000);
      const current = openOf.get(`${rule.id}\n${b.vehicleId}`);
      if (!current) changes.opened.push(newAlert(rule, b, b.lastRejectedAt!, peak));
      else if (peak > (current.peak ?? 0)) changes.updated.push({ id: current.id, peak });
    }
  }
  return changes;
}

/**
 * The next moment after `now` when silence alone (no report) changes something: a beacon reaching
 * INACTIVE_AFTER_MS or a beacon_silent rule's minutes, or a clock-ahead episode running out;
 * rounded up to DEADLINE_GROUP_MS. Null: nothing will, until a report arrives.
 */
export function nextSilenceDeadline(
  rules: readonly AlertRule[],
  beacons: readonly WatchedBeacon[],
  now: number,
): number | null {
  let next = Infinity;
  const consider = (at: number) => {
    if (at > now && at < next) next = at;
  };
  const silenceRules = rules.filter((r) => r.type === "beacon_silent");
  for (const b of beacons) {
    if (b.lastRejectedReason === "clock_ahead" && b.lastRejectedAt !== null)
      consider(b.lastRejectedAt + EPISODE_GAP_MS);
    const last = b.lastReportAt;
    if (last === null || now - last > SILENCE_HORIZON_MS) continue;
    consider(last + INACTIVE_AFTER_MS);
    for (const rule of silenceRules)
      if (rule.type === "beacon_silent" && appliesTo(rule, b.vehicleId)) consider(last + rule.minutes * 60_000);
  }
  return next === Infinity ? null : Math.ceil(next / DEADLINE_GROUP_MS) * DEADLINE_GROUP_MS;
}
