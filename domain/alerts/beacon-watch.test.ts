import { describe, expect, it } from "vitest";
import type { AlertRule } from "../../shared/alerts/alert-rules";
import {
  clockChanges,
  DEADLINE_GROUP_MS,
  EPISODE_GAP_MS,
  INACTIVE_AFTER_MS,
  nextSilenceDeadline,
  silenceChanges,
  type WatchedBeacon,
} from "./beacon-watch";

const MINUTE = 60_000;
const T = Date.parse("2026-11-02T08:00:30Z");
const beacon = (vehicleId: string, lastReportAt: number | null, more: Partial<WatchedBeacon> = {}): WatchedBeacon => ({
  vehicleId,
  lastReportAt,
  lastRejectedAt: null,
  lastRejectedReason: null,
  clockSkewMs: null,
  latitude: 41,
  longitude: -87,
  ...more,
});
const silentRule = (minutes: number, vehicleIds?: string[]) =>
  ({ id: `r${minutes}`, type: "beacon_silent", minutes, vehicleIds }) as unknown as AlertRule;
const clockRule = { id: "c", type: "clock_ahead" } as unknown as AlertRule;

describe("the beacon watch's next deadline", () => {
  it("is the earliest silence to come, rounded up to the minute, so beacons stopping together share one alarm", () => {
    const fleet = Array.from({ length: 10_000 }, (_, i) => beacon(`v${i}`, T + (i % 50) * 1000));
    const deadline = nextSilenceDeadline([], fleet, T + MINUTE);
    expect(deadline).toBe(Math.ceil((T + INACTIVE_AFTER_MS) / DEADLINE_GROUP_MS) * DEADLINE_GROUP_MS);
    expect(deadline! % DEADLINE_GROUP_MS).toBe(0);
  });

  it("counts a rule's shorter silence for its own vehicles only, and skips what is already past", () => {
    const rules = [silentRule(5, ["v1"])];
    expect(nextSilenceDeadline(rules, [beacon("v1", T), beacon("v2", T)], T)).toBe(T - 30_000 + 6 * MINUTE);
    expect(nextSilenceDeadline(rules, [beacon("v2", T)], T)).toBe(T - 30_000 + 16 * MINUTE);
    expect(nextSilenceDeadline(rules, [beacon("v1", T - 20 * MINUTE)], T)).toBeNull();
  });

  it("includes the end of a clock-ahead episode, and nothing for a beacon that never reported", () => {
    const refusing = beacon("v1", null, { lastRejectedAt: T, lastRejectedReason: "clock_ahead" });
    expect(nextSilenceDeadline([clockRule], [refusing], T)).toBe(
      Math.ceil((T + EPISODE_GAP_MS) / DEADLINE_GROUP_MS) * DEADLINE_GROUP_MS,
    );
    expect(nextSilenceDeadline([], [beacon("v2", null)], T)).toBeNull();
  });
});

describe("the beacon watch's alerts", () => {
  it("opens one silence alert per rule and silence, dated at the last report, and ends it at the next report", () => {
    const [opened] = silenceChanges([silentRule(30)], [beacon("v1", T)], [], T + 31 * MINUTE).opened;
    expect(opened).toMatchObject({ type: "beacon_silent", vehicleId: "v1", at: T, endAt: null, latitude: 41 });
    const open = [{ ...opened!, peak: null }];
    expect(silenceChanges([silentRule(30)], [beacon("v1", T)], open, T + 40 * MINUTE)).toEqual({
      opened: [],
      updated: [],
    });
    expect(silenceChanges([silentRule(30)], [beacon("v1", T + 41 * MINUTE)], open, T + 41 * MINUTE).updated).toEqual([
      { id: opened!.id, endAt: T + 41 * MINUTE },
    ]);
  });

  it("opens a clock-ahead alert while refusals go on, raises its peak, and ends it when a report is accepted", () => {
    const refusing = beacon("v1", T - MINUTE, {
      lastRejectedAt: T,
      lastRejectedReason: "clock_ahead",
      clockSkewMs: 3_600_000,
    });
    const [opened] = clockChanges([clockRule], [refusing], [], T + 1000).opened;
    expect(opened).toMatchObject({ type: "clock_ahead", at: T, peak: 3600 });
    const open = [{ ...opened!, peak: 3600 }];
    expect(clockChanges([clockRule], [{ ...refusing, clockSkewMs: 7_200_000 }], open, T + 1000).updated).toEqual([
      { id: opened!.id, peak: 7200 },
    ]);
    const accepted = { ...refusing, lastReportAt: T + 2 * MINUTE };
    expect(clockChanges([clockRule], [accepted], open, T + 2 * MINUTE).updated).toEqual([
      { id: opened!.id, endAt: T + 2 * MINUTE },
    ]);
  });
});
