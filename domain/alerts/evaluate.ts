import { appliesTo, type Alert, type AlertRule } from "../../shared/alerts/alert-rules";
import type { PlaceEvent } from "../places/evaluate";
import type { Fix } from "../fold/fold";
import { fuelDropAlerts, type FuelSeen } from "./fuel-drop";

/**
 * Alert rules per vehicle, as episodes (docs/decisions/0019-places-and-alert-episodes.md): state
 * in, fix in -> state out, alerts out. A condition that holds for a rule's minimum duration opens
 * ONE alert dated at the episode's start; while it goes on only its peak grows; when it ends the
 * alert gets its end. So a vehicle speeding for ten minutes is one alert, not six hundred, and a
 * replayed fix produces the same alert id (ids derive from rule, vehicle and start).
 */
export type AlertFix = Pick<Fix, "time" | "latitude" | "longitude" | "speed" | "ignition"> & {
  /** how far the device's clock was seen ahead of the server's, for a report refused for it */
  clockAheadMs?: number;
};

interface Episode {
  start: number;
  last: number;
  latitude: number;
  longitude: number;
  peak: number | null;
  /** set once the episode has lasted long enough to be an alert */
  alertId?: string;
}

export interface AlertState {
  /** the latest fix's time (for beacon silence) and place */
  lastFix: { time: number; latitude: number; longitude: number } | null;
  episodes: Record<string, Episode>;
}

/** `open`: a new alert (deliver it); `close`: the same alert with its end and final peak. */
export type AlertOutput = { kind: "open" | "close"; alert: Alert };

export const emptyAlertState = (): AlertState => ({ lastFix: null, episodes: {} });

const MPH = 2.236_936;
/** below this a vehicle is standing still (about 2 mph, as the trip detector's idle) */
const STILL_MPS = 1;
/** moving with the ignition off faster than this is a tow (5 mph: not a phone's GPS drift) */
const TOW_MPS = 2.2;
const TOW_MIN_MS = 30_000;
/** a gap in reports longer than this ends an episode at its last fix */
const EPISODE_GAP_MS = 600_000;

/** The value a rule watches on this fix (its peak candidate), or undefined when it does not hold. */
function condition(rule: AlertRule, fix: AlertFix): number | null | undefined {
  const speed = fix.speed ?? 0;
  switch (rule.type) {
    case "speeding":
      return speed * MPH > rule.speedMph ? round1(speed * MPH) : undefined;
    case "idling":
      return fix.ignition === true && speed < STILL_MPS ? null : undefined;
    case "tow":
      return fix.ignition === false && speed >= TOW_MPS ? round1(speed * MPH) : undefined;
    case "clock_ahead":
      return fix.clockAheadMs && fix.clockAheadMs > 0 ? Math.round(fix.clockAheadMs / 1000) : undefined;
    default:
      return undefined;
  }
}

function minimumMs(rule: AlertRule): number {
  if (rule.type === "speeding") return rule.minSeconds * 1000;
  if (rule.type === "idling") return rule.minutes * 60_000;
  if (rule.type === "tow") return TOW_MIN_MS;
  return 0;
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const NO_FUEL: FuelSeen = { events: [], tankLitres: null };
/** A fuel drop's episode keeps only its start and alert id; the rest of Episode is unused for it. */
const NO_PLACE = { latitude: 0, longitude: 0, peak: null };

export function evaluateAlerts(
  state: AlertState,
  vehicleId: string,
  fix: AlertFix,
  placeEvents: readonly PlaceEvent[],
  rules: readonly AlertRule[],
  fuel: FuelSeen = NO_FUEL,
): { state: AlertState; alerts: AlertOutput[] } {
  const alerts: AlertOutput[] = [];
  const episodes: Record<string, Episode> = {};
  const refused = fix.clockAheadMs !== undefined;
  if (!refused && state.lastFix && fix.time <= state.lastFix.time) return { state, alerts };
  for (const rule of rules) {
    if (!appliesTo(rule, vehicleId)) continue;
    if (rule.type === "place_enter" || rule.type === "place_exit") {
      alerts.push(...placeAlerts(rule, vehicleId, placeEvents));
      continue;
    }
    const previous = state.episodes[rule.id];
    if (rule.type === "fuel_drop") {
      const step = fuelDropAlerts(rule, vehicleId, previous, fuel, (at) => alertId(rule.id, vehicleId, at));
      alerts.push(...step.alerts);
      if (step.episode) episodes[rule.id] = { ...NO_PLACE, last: fix.time, ...step.episode };
      continue;
    }
    if (rule.type === "beacon_silent") {
      // a silence ends with the next report
      if (previous?.alertId && !refused)
        alerts.push({ kind: "close", alert: { ...episodeAlert(rule, vehicleId, previous), endAt: fix.time } });
      else if (previous) episodes[rule.id] = previous;
      continue;
    }
    // a refused report only speaks for the device clock; other episodes wait for real fixes
    if (refused && rule.type !== "clock_ahead") {
      if (previous) episodes[rule.id] = previous;
      continue;
    }
    const next = advanceEpisode(rule, vehicleId, previous, fix, alerts);
    if (next) episodes[rule.id] = next;
  }
  const lastFix = refused ? state.lastFix : { time: fix.time, latitude: fix.latitude, longitude: fix.longitude };
  return { state: { lastFix, episodes }, alerts };
}

/** One episode rule's step: start, grow, become an alert after its minimum, or end. */
function advanceEpisode(
  rule: AlertRule,
  vehicleId: string,
  previous: Episode | undefined,
  fix: AlertFix,
  alerts: AlertOutput[],
): Episode | null {
  const value = condition(rule, fix);
  let episode = previous;
  if (episode && (value === undefined || fix.time - episode.last > EPISODE_GAP_MS)) {
    const endAt = value === undefined ? fix.time : episode.last;
    if (episode.alertId) alerts.push({ kind: "close", alert: { ...episodeAlert(rule, vehicleId, episode), endAt } });
    episode = undefined;
  }
  if (value === undefined) return null;
  if (!episode)
    episode = { start: fix.time, last: fix.time, latitude: fix.latitude, longitude: fix.longitude, peak: value };
  else
    episode = {
      ...episode,
      last: fix.time,
      peak: value === null || episode.peak === null ? episode.peak : Math.max(episode.peak, value),
    };
  if (!episode.alertId && fix.time - episode.start >= minimumMs(rule)) {
    episode = { ...episode, alertId: alertId(rule.id, vehicleId, episode.start) };
    alerts.push({ kind: "open", alert: episodeAlert(rule, vehicleId, episode) });
  }
  return episode;
}

/** The alert an episode is (still open: no end). */
function episodeAlert(rule: AlertRule, vehicleId: string, episode: Episode): Alert {
  return {
    id: episode.alertId ?? alertId(rule.id, vehicleId, episode.start),
    type: rule.type,
    ruleId: rule.id,
    vehicleId,
    placeId: null,
    at: episode.start,
    endAt: null,
    latitude: episode.latitude,
    longitude: episode.longitude,
    peak: episode.peak,
  };
}

function placeAlerts(
  rule: AlertRule & { type: "place_enter" | "place_exit" },
  vehicleId: string,
  events: readonly PlaceEvent[],
): AlertOutput[] {
  const wanted = rule.type === "place_enter" ? "enter" : "exit";
  return events
    .filter((e) => e.type === wanted && (!rule.placeId || rule.placeId === e.placeId))
    .map((e) => ({
      kind: "open" as const,
      alert: {
        id: alertId(rule.id, vehicleId, e.at, e.placeId),
        type: rule.type,
        ruleId: rule.id,
        vehicleId,
        placeId: e.placeId,
        at: e.at,
        endAt: null,
        latitude: e.latitude,
        longitude: e.longitude,
        peak: null,
      },
    }));
}

/**
 * Beacon silence is the absence of fixes, so it is checked on a clock (the cron), not per fix:
 * a vehicle silent longer than a rule's minutes gets one alert dated when the silence began.
 */
export function evaluateSilence(
  state: AlertState,
  vehicleId: string,
  now: number,
  rules: readonly AlertRule[],
): { state: AlertState; alerts: AlertOutput[] } {
  const last = state.lastFix;
  if (!last) return { state, alerts: [] };
  const alerts: AlertOutput[] = [];
  const episodes = { ...state.episodes };
  for (const rule of rules) {
    if (rule.type !== "beacon_silent" || !appliesTo(rule, vehicleId) || episodes[rule.id]) continue;
    if (now - last.time < rule.minutes * 60_000) continue;
    const alert: Alert = {
      id: alertId(rule.id, vehicleId, last.time),
      type: rule.type,
      ruleId: rule.id,
      vehicleId,
      placeId: null,
      at: last.time,
      endAt: null,
      latitude: last.latitude,
      longitude: last.longitude,
      peak: null,
    };
    episodes[rule.id] = {
      start: last.time,
      last: last.time,
      latitude: last.latitude,
      longitude: last.longitude,
      peak: null,
      alertId: alert.id,
    };
    alerts.push({ kind: "open", alert });
  }
  return { state: { ...state, episodes }, alerts };
}

/** Sorts by time (base36, padded like timeline event ids), then a hash of what the alert is about. */
export function alertId(ruleId: string, vehicleId: string, at: number, placeId = ""): string {
  let hash = 0x811c9dc5;
  for (const ch of `${ruleId}|${vehicleId}|${placeId}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `${Math.max(0, Math.round(at)).toString(36).padStart(9, "0")}-${hash.toString(36).padStart(7, "0")}`;
}
