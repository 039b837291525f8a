import type { Db } from "../../db/client";
import type { AlertRule } from "../../shared/alerts/alert-rules";
import type { AlarmTask } from "../alarm/alarm-task";
import type { DeviceState } from "../live-fleet/live-store";
import type { LiveFleet } from "../live-fleet/live-fleet";
import {
  clockChanges,
  isInactive,
  nextSilenceDeadline,
  silenceChanges,
  type WatchedBeacon,
} from "../../domain/alerts/beacon-watch";
import { readWatchSnapshot, writeWatchChanges, type WatchSnapshot } from "./beacon-watch-d1";

/**
 * Reports since the last run may end a silence, or start or end a clock-ahead episode: the watch
 * looks again this long after them (the cron's minute, which it replaces). The look is in memory;
 * D1 hears only of what changed.
 */
export const WATCH_RECHECK_MS = 60_000;

/**
 * A new instance (a new object, or one woken after an eviction) takes its first look this long
 * after it is first asked: with the object's first flush rather than an alarm of its own at once
 * (which would also cut short a failing flush's backoff). A silence reached while the object slept
 * is noticed this much later, within the minute a deadline is rounded to anyway.
 */
export const FIRST_LOOK_DELAY_MS = 10_000;

/** What the watch needs of its object. */
export interface BeaconWatchDeps {
  workspaceId: string;
  db: () => Db;
  fleet: () => LiveFleet;
  /** The workspace's alert rules as the object holds them (party/alerts/workspace-watch.ts). */
  rules: () => Promise<readonly AlertRule[]>;
  /** Writes pending reports to D1 first: the beacons read on waking and the ACTIVE the flush owes are in D1 then. */
  settle: () => Promise<void>;
  /** Open pages pull what the watch wrote. */
  announce: () => Promise<void>;
}

/**
 * Beacon silence as a task of the workspace object's alarm (docs/decisions/0059): beacons going
 * INACTIVE, and the beacon_silent and clock_ahead alerts, decided from the last reports the object
 * holds (domain/alerts/beacon-watch.ts) and written through the object, the one writer of its
 * live tables. The alarm is set for the earliest silence deadline, rounded to the minute, so a
 * fleet's beacons share an alarm per minute at most, however many there are.
 *
 * An instance's first run (a new object, or one woken after an eviction) reads D1 once: the
 * beacons it never held (silent since before the object knew them), the open alerts, the INACTIVE
 * vehicles. After that it runs from memory and the object's storage (devices are stored there).
 */
export class BeaconWatchTask implements AlarmTask {
  readonly name = "beacon watch (silence, clock ahead)";
  #snapshot: WatchSnapshot | null = null;
  #firstLookAt: number | null = null;
  #deadline: number | null = null;
  #ranAt = 0;
  #deviceChangesSeen = 0;
  #rulesSeen: readonly AlertRule[] | null = null;
  /** A run that failed (D1 unreachable) is tried again no sooner than this. */
  #notBefore = 0;

  constructor(private readonly deps: BeaconWatchDeps) {}

  async dueAt(now: number): Promise<number | null> {
    // Cheap on purpose: the room asks at every ingestion. Reports only push deadlines later.
    if (!this.#snapshot) return Math.max((this.#firstLookAt ??= now + FIRST_LOOK_DELAY_MS), this.#notBefore);
    const rules = await this.deps.rules();
    const changed = rules !== this.#rulesSeen || this.deps.fleet().deviceChanges !== this.#deviceChangesSeen;
    const recheck = changed ? this.#ranAt + WATCH_RECHECK_MS : null;
    const due = [this.#deadline, recheck].filter((t): t is number => t !== null);
    return due.length ? Math.max(Math.min(...due), this.#notBefore) : null;
  }

  async run(now: number): Promise<void> {
    this.#notBefore = now + WATCH_RECHECK_MS;
    const { workspaceId, db, fleet } = this.deps;
    const deviceChanges = fleet().deviceChanges;
    if (!this.#snapshot) {
      await this.deps.settle();
      this.#snapshot = await readWatchSnapshot(db(), workspaceId);
    }
    const snapshot = this.#snapshot;
    const rules = await this.deps.rules();
    const watched = this.#beacons(snapshot);
    // Reported again since: the flush writes ACTIVE (its pending entry came with the report).
    for (const b of watched) if (!isInactive(b, now)) snapshot.inactive.delete(b.vehicleId);
    const inactive = watched.filter((b) => isInactive(b, now) && !snapshot.inactive.has(b.vehicleId));
    const silent = silenceChanges(
      rules,
      watched,
      snapshot.open.filter((a) => a.type === "beacon_silent"),
      now,
    );
    const clock = clockChanges(
      rules,
      watched,
      snapshot.open.filter((a) => a.type === "clock_ahead"),
      now,
    );
    const changes = { opened: [...silent.opened, ...clock.opened], updated: [...silent.updated, ...clock.updated] };
    if (inactive.length || changes.opened.length || changes.updated.length) {
      // The ACTIVE a flush owes is written before the INACTIVE this run decides.
      await this.deps.settle();
      const inactiveIds = inactive.map((b) => b.vehicleId);
      await writeWatchChanges(db(), workspaceId, inactiveIds, changes, () => this.deps.announce());
      this.#remember(snapshot, inactiveIds, changes);
    }
    this.#deadline = nextSilenceDeadline(rules, watched, now);
    this.#ranAt = now;
    this.#deviceChangesSeen = deviceChanges;
    this.#rulesSeen = rules;
    this.#notBefore = 0;
  }

  /** Each vehicle's beacon: the object's devices (the newest report of each vehicle's), over D1's for the rest. */
  #beacons(snapshot: WatchSnapshot): WatchedBeacon[] {
    const byVehicle = new Map(snapshot.beacons.map((b) => [b.vehicleId, b]));
    const fleet = this.deps.fleet();
    const held = new Map<string, DeviceState>();
    for (const d of fleet.devices()) {
      const seen = held.get(d.vehicleId);
      if (!seen || latestOf(d) > latestOf(seen)) held.set(d.vehicleId, d);
    }
    for (const [vehicleId, d] of held) {
      const latest = fleet.vehicle(vehicleId)?.latest ?? byVehicle.get(vehicleId);
      byVehicle.set(vehicleId, {
        vehicleId,
        lastReportAt: d.lastReportAt,
        lastRejectedAt: d.lastRejectedAt,
        lastRejectedReason: d.lastRejectedReason,
        clockSkewMs: d.clockSkewMs,
        latitude: latest?.latitude ?? null,
        longitude: latest?.longitude ?? null,
      });
    }
    return [...byVehicle.values()];
  }

  /** What was written, kept so the next run does not write it again. */
  #remember(snapshot: WatchSnapshot, inactive: string[], changes: ReturnType<typeof silenceChanges>) {
    for (const id of inactive) snapshot.inactive.add(id);
    const ended = new Set(changes.updated.filter((u) => u.endAt !== undefined).map((u) => u.id));
    const peaks = new Map(changes.updated.flatMap((u) => (u.peak === undefined ? [] : [[u.id, u.peak] as const])));
    snapshot.open = [
      ...snapshot.open
        .filter((a) => !ended.has(a.id))
        .map((a) => (peaks.has(a.id) ? { ...a, peak: peaks.get(a.id)! } : a)),
      ...changes.opened.map((a) => ({ ...a, type: a.type as "beacon_silent" | "clock_ahead" })),
    ];
  }
}

const latestOf = (d: DeviceState) => Math.max(d.lastReportAt ?? 0, d.lastRejectedAt ?? 0);
