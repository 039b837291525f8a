import { describe, expect, it } from "vitest";
import {
  canMoveJob,
  decodeJob,
  encodeJob,
  jobCompleted,
  jobFieldsOf,
  jobMovedTo,
  jobsReordered,
  jobWithStatus,
  movedFinishedJob,
  placeCentre,
  syncedJobDates,
  type JobFields,
} from "./jobs";

const planned: JobFields = jobFieldsOf(
  { title: "Deliver", date: "2026-11-30", vehicleId: "3f2b6c1e-8d4a-4b7e-9c1a-2d3e4f5a6b7c" },
  { latitude: 41.8781234, longitude: -87.6297982, address: null },
  { number: 7, sequence: 2 },
);

describe("a job's status", () => {
  it("moves forward, never out of completed, and back to scheduled only from en route, skipped or cancelled", () => {
    expect(canMoveJob("scheduled", "arrived")).toBe(true);
    expect(canMoveJob("arrived", "completed")).toBe(true);
    expect(canMoveJob("skipped", "arrived")).toBe(true);
    expect(canMoveJob("cancelled", "scheduled")).toBe(true);
    expect(canMoveJob("cancelled", "completed")).toBe(false);
    expect(canMoveJob("arrived", "scheduled")).toBe(false);
    for (const to of ["scheduled", "en_route", "arrived", "skipped", "cancelled"] as const)
      expect(canMoveJob("completed", to)).toBe(false);
  });

  it("keeps the first time a status was reached, and drops the ETA once the job is reached", () => {
    const enRoute = jobWithStatus({ ...planned, eta: 5_000 }, "en_route", 1_000);
    expect(enRoute).toMatchObject({ enRouteAt: 1_000, eta: 5_000 });
    const arrived = jobWithStatus(jobWithStatus(enRoute, "en_route", 2_000), "arrived", 3_000);
    expect(arrived).toMatchObject({ enRouteAt: 1_000, arrivedAt: 3_000, eta: null });
    const done = jobCompleted(arrived, { recipientName: "Ann", photoIds: ["p"] }, 4_000, "u1");
    expect(done).toMatchObject({
      status: "completed",
      completedAt: 4_000,
      recipientName: "Ann",
      completedByUserId: "u1",
    });
  });
});

describe("a synced job", () => {
  it("keeps days before 2026 and points on either side of the meridian and the equator", () => {
    const far = { ...planned, date: "2025-12-31", latitude: -33.8688197, longitude: 151.2092955 };
    expect(encodeJob(far).slice(2, 6)).toEqual([-1, 2, -3_386_882, 15_120_930]);
    expect(decodeJob("id", encodeJob(far))).toMatchObject({
      date: "2025-12-31",
      latitude: -33.86882,
      longitude: 151.2093,
    });
    expect(decodeJob("id", encodeJob({ ...planned, latitude: -0.000001, longitude: 0 }))).toMatchObject({
      latitude: 0,
      longitude: 0,
    });
  });

  it("travels compact: a positional core, nulls and defaults left out, ids packed, and back unchanged", () => {
    const wire = encodeJob(planned);
    expect(wire).toEqual([7, "Deliver", 333, 2, 4_187_812, -8_762_980, expect.any(String)]);
    expect(wire[6]).toHaveLength(21);
    expect(decodeJob("id", wire)).toEqual({ ...planned, id: "id", latitude: 41.87812, longitude: -87.6298 });
    const windowed = { ...planned, vehicleId: null, windowEnd: "00:00", address: "1 Main St" };
    expect(encodeJob(windowed)).toEqual([7, "Deliver", 333, 2, 4_187_812, -8_762_980, null, "1 Main St", null, 0]);
    expect(decodeJob("id", encodeJob(windowed))).toMatchObject({
      windowStart: null,
      windowEnd: "00:00",
      vehicleId: null,
    });
    const done = jobCompleted({ ...planned, radiusMeters: 80 }, { note: "ok" }, 1_700_000_000_500, "u");
    expect(encodeJob(done)[10]).toEqual({ r: 80, s: 3, co: 1_700_000_000, pn: "ok", cb: "u" });
    expect(decodeJob("id", encodeJob(done))).toMatchObject({
      status: "completed",
      completedAt: 1_700_000_000_000,
      proofNote: "ok",
      radiusMeters: 80,
    });
  });

  it("carries a second visit compactly, and one visit as its arrival and departure alone", () => {
    const one = { ...planned, status: "arrived" as const, arrivedAt: 1_700_000_000_000, departedAt: 1_700_000_300_000 };
    const first = { arrivedAt: one.arrivedAt, departedAt: one.departedAt };
    expect(encodeJob({ ...one, visits: [first] })[10]).toEqual({ s: 2, ar: 1_700_000_000, de: 1_700_000_300 });
    expect(decodeJob("id", encodeJob({ ...one, visits: [first] })).visits).toEqual([first]);
    const back = { ...one, departedAt: null, visits: [first, { arrivedAt: 1_700_001_800_000, departedAt: null }] };
    expect(encodeJob(back)[10]).toMatchObject({ vi: [1_700_000_000, 1_700_000_300, 1_700_001_800, null] });
    expect(decodeJob("id", encodeJob(back)).visits).toEqual(back.visits);
  });

  it("moves a job to another vehicle or day without the old one's en route or ETA, and keeps a finished job's place", () => {
    const driving = { ...planned, id: "a", status: "en_route" as const, enRouteAt: 5, eta: 9 };
    expect(jobMovedTo(driving, "other", planned.date)).toMatchObject({
      status: "scheduled",
      enRouteAt: null,
      eta: null,
    });
    expect(jobMovedTo(driving, driving.vehicleId, planned.date)).toBe(driving);
    // Passed by its vehicle and given to another: that one has it ahead (issue 53).
    const passed = { ...planned, status: "skipped" as const };
    expect(jobMovedTo(passed, "other", planned.date)).toMatchObject({ status: "scheduled", vehicleId: "other" });
    expect(jobMovedTo(passed, passed.vehicleId, planned.date)).toBe(passed);
    const day = [
      { ...planned, id: "done", sequence: 0, status: "completed" as const },
      { ...driving, id: "next", sequence: 1 },
      { ...planned, id: "last", sequence: 2 },
    ];
    const order = { vehicleId: planned.vehicleId, date: planned.date };
    expect(movedFinishedJob(day, { ...order, jobIds: ["next", "done", "last"] })?.id).toBe("done");
    expect(movedFinishedJob(day, { ...order, jobIds: ["done", "last", "next"] })).toBeNull();
    expect(movedFinishedJob(day, { ...order, vehicleId: "other", jobIds: ["done"] })?.id).toBe("done");
    // the vehicle was on its way: the new first stop not reached is the one en route
    const reordered = jobsReordered([day[0]!, day[2]!, day[1]!], order, 77);
    expect(reordered.map((j) => [j.id, j.sequence, j.status, j.enRouteAt])).toEqual([
      ["done", 0, "completed", null],
      ["last", 1, "en_route", 77],
      ["next", 2, "scheduled", null],
    ]);
  });

  it("is synced from every zone's yesterday to a week ahead", () => {
    const now = Date.parse("2026-11-28T23:30:00Z");
    expect(syncedJobDates(now)).toEqual({ first: "2026-11-26", last: "2026-12-06" });
  });

  it("at a place heads for its centre", () => {
    expect(placeCentre({ type: "Circle", center: [-87.6, 41.9], radius: 50 })).toEqual({
      latitude: 41.9,
      longitude: -87.6,
    });
    const square = {
      type: "Polygon" as const,
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [2, 2],
          [0, 2],
        ] as [number, number][],
      ],
    };
    expect(placeCentre(square)).toEqual({ latitude: 1, longitude: 1 });
  });
});
