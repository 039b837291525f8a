import { describe, expect, it } from "vitest";
import { dayAround, droveToday, droveWithoutInspection, type TripSpan } from "./drove-without-inspection";

const MIN = 60_000;
// Wednesday 14 October 2026 in Chicago (UTC-5 then): midnight is 05:00 UTC.
const NOON = Date.parse("2026-10-14T12:00:00-05:00");
const day = dayAround(NOON, "America/Chicago");
const trip = (start: string, end: string | null): TripSpan => ({
  type: "TRANSIT",
  startTime: Date.parse(start),
  endTime: end === null ? null : Date.parse(end),
});

describe("dayAround", () => {
  it("is the workspace's local day, midnight to midnight", () => {
    expect(day).toEqual({
      day: "2026-10-14",
      start: Date.parse("2026-10-14T00:00:00-05:00"),
      end: Date.parse("2026-10-15T00:00:00-05:00"),
    });
  });
});

describe("droveToday", () => {
  it("counts a trip that started today, one going on, and one that crossed midnight into today", () => {
    expect(droveToday([trip("2026-10-14T08:00:00-05:00", "2026-10-14T08:30:00-05:00")], day)).toBe(true);
    expect(droveToday([trip("2026-10-14T11:50:00-05:00", null)], day)).toBe(true);
    expect(droveToday([trip("2026-10-13T23:30:00-05:00", "2026-10-14T00:20:00-05:00")], day)).toBe(true);
    expect(droveToday([trip("2026-10-12T08:00:00-05:00", null)], day)).toBe(true);
  });

  it("does not count yesterday's trips, tomorrow's, stops or tows", () => {
    expect(droveToday([trip("2026-10-13T22:00:00-05:00", "2026-10-13T23:59:00-05:00")], day)).toBe(false);
    expect(droveToday([trip("2026-10-15T00:00:00-05:00", null)], day)).toBe(false);
    const stop = { type: "STOP", startTime: day.start + 5 * MIN, endTime: null };
    const tow = { type: "TOW", startTime: day.start + 5 * MIN, endTime: day.start + 30 * MIN };
    expect(droveToday([stop, tow], day)).toBe(false);
    expect(droveToday([], day)).toBe(false);
  });

  it("takes the day in the workspace's zone, not UTC's", () => {
    // 02:00 UTC on the 14th is still the 13th in Chicago.
    expect(droveToday([trip("2026-10-14T02:00:00Z", "2026-10-14T03:00:00Z")], day)).toBe(false);
    expect(droveToday([trip("2026-10-14T02:00:00Z", "2026-10-14T03:00:00Z")], dayAround(NOON, "UTC"))).toBe(true);
  });
});

describe("droveWithoutInspection", () => {
  const vehicles = [
    { id: "a", name: "Alpha" },
    { id: "b", name: "Bravo" },
    { id: "c", name: "Charlie" },
    { id: "d", name: "Delta" },
  ];
  const today = trip("2026-10-14T09:00:00-05:00", "2026-10-14T09:40:00-05:00");
  const trips: Record<string, TripSpan[]> = { a: [today], b: [today], c: [], d: [today] };

  it("lists vehicles that drove today with no inspection submitted today, in the order given", () => {
    const out = droveWithoutInspection({
      vehicles,
      tripsOf: (id) => trips[id] ?? [],
      inspections: [
        { vehicleId: "b", submittedAt: day.start + 7 * 60 * MIN }, // inspected this morning
        { vehicleId: "d", submittedAt: day.start - MIN }, // yesterday's inspection does not count
        { vehicleId: "c", submittedAt: day.start + MIN }, // inspected, never drove
      ],
      day,
    });
    expect(out.map((v) => v.name)).toEqual(["Alpha", "Delta"]);
  });

  it("counts an inspection done after the drive too: today's inspection, whenever today", () => {
    const out = droveWithoutInspection({
      vehicles,
      tripsOf: (id) => trips[id] ?? [],
      inspections: ["a", "b", "d"].map((vehicleId) => ({ vehicleId, submittedAt: day.end - MIN })),
      day,
    });
    expect(out).toEqual([]);
  });
});
