import { describe, expect, it } from "vitest";
import { DEFAULT_ROAD_RATIO, DEFAULT_SPEED_MPS } from "../jobs/travel";
import { distanceMetres } from "../../shared/units/geo";
import { planDay, type DayJob, type DayVehicle } from "./day-plan";
import { speedAtHour, streetTravel, typicalSpeed } from "./street-travel";

const here = { latitude: 41.88, longitude: -87.63 };
const north = { latitude: 41.97, longitude: -87.63 };

describe("streetTravel", () => {
  it("drives the straight line × the road ratio, at the city default before the fleet has an hour of driving", () => {
    const leg = streetTravel(null)(here, north, 11);
    expect(leg.meters).toBeCloseTo(distanceMetres(here, north) * DEFAULT_ROAD_RATIO, 6);
    expect(leg.seconds).toBeCloseTo(leg.meters / DEFAULT_SPEED_MPS, 6);
    expect(typicalSpeed({ meters: 10_000, drivingSeconds: 600 })).toBe(DEFAULT_SPEED_MPS);
  });

  it("learns the fleet's speed from its recorded days, and is slower at the rush hours than at noon or night", () => {
    const learned = streetTravel({ meters: 36_000, drivingSeconds: 3_600 });
    expect(learned(here, north, 11).seconds).toBeCloseTo((distanceMetres(here, north) * DEFAULT_ROAD_RATIO) / 10, 6);
    expect(speedAtHour(10, 8)).toBeLessThan(speedAtHour(10, 11));
    expect(speedAtHour(10, 17)).toBeLessThan(speedAtHour(10, 11));
    expect(speedAtHour(10, 2)).toBeGreaterThan(speedAtHour(10, 11));
    // A wild recording is kept within bounds.
    expect(typicalSpeed({ meters: 1e9, drivingSeconds: 3_600 })).toBe(30);
  });
});

const job = (id: string, latitude: number, more: Partial<DayJob> = {}): DayJob => ({
  id,
  point: { latitude, longitude: -87.63 },
  windowStart: null,
  windowEnd: null,
  serviceSeconds: 300,
  size: 1,
  vehicleId: null,
  sequence: 0,
  ...more,
});
const vehicle = (id: string, more: Partial<DayVehicle> = {}): DayVehicle => ({
  id,
  capacity: 100,
  start: here,
  end: here,
  shiftStart: 8 * 3600,
  shiftEnd: 18 * 3600,
  ...more,
});
const request = (jobs: DayJob[], vehicles: DayVehicle[], keepAssigned = true) => ({
  jobs,
  vehicles,
  keepAssigned,
  travel: streetTravel(null),
  seed: 1,
  maxIterations: 300,
  timeLimitMs: Infinity,
});

describe("planDay", () => {
  it("keeps an assigned job on its vehicle unless told not to", () => {
    const jobs = [job("a", 41.9), job("b", 41.91, { vehicleId: "far", sequence: 0 })];
    const vehicles = [vehicle("near"), vehicle("far", { start: { latitude: 42.5, longitude: -87.63 } })];
    const kept = planDay(request(jobs, vehicles));
    expect(kept.routes.find((r) => r.stops.some((s) => s.jobId === "b"))!.vehicleId).toBe("far");
    const free = planDay(request(jobs, vehicles, false));
    expect(free.routes.map((r) => r.vehicleId)).toEqual(["near"]);
    expect(free.after.distanceMeters).toBeLessThan(free.before.distanceMeters);
  });

  it("counts the late stops of the day as it stands, and plans none late", () => {
    // Two stops in the wrong order for their windows, on one vehicle.
    const jobs = [
      job("late", 41.95, { vehicleId: "v", sequence: 0, windowStart: 15 * 3600, windowEnd: 16 * 3600 }),
      job("early", 41.9, { vehicleId: "v", sequence: 1, windowStart: 8 * 3600, windowEnd: 9 * 3600 }),
    ];
    const plan = planDay(request(jobs, [vehicle("v")]));
    expect(plan.before.lateStops).toBe(1);
    expect(plan.after.lateStops).toBe(0);
    expect([plan.before.stops, plan.after.stops]).toEqual([2, 2]);
    expect(plan.routes[0]!.stops.map((s) => s.jobId)).toEqual(["early", "late"]);
    const early = plan.routes[0]!.stops[0]!;
    expect(early.start).toBeGreaterThanOrEqual(8 * 3600);
    expect(early.start).toBeGreaterThanOrEqual(early.arrival);
  });

  it("leaves out what no shift can reach with the planner's reason, and an open route starts at its first stop", () => {
    const plan = planDay(
      request(
        [job("night", 41.9, { windowStart: 22 * 3600, windowEnd: 23 * 3600 }), job("day", 41.9)],
        [vehicle("v", { start: null, end: null })],
      ),
    );
    expect(plan.unassigned).toEqual([{ jobId: "night", reason: "unreachable_in_window" }]);
    expect(plan.routes[0]!.distanceMeters).toBe(0);
    expect(plan.routes[0]!.stops[0]!.arrival).toBe(8 * 3600);
  });

  it("with no vehicle, leaves every job out; with no job, plans nothing", () => {
    expect(planDay(request([job("a", 41.9)], [])).unassigned).toEqual([{ jobId: "a", reason: "no_room_left" }]);
    expect(planDay(request([], [vehicle("v")]))).toMatchObject({ routes: [], unassigned: [] });
  });
});
