import { describe, expect, it } from "vitest";
import { planRoutes, planRoutesSteps } from "./plan";
import { runCooperatively } from "./steps";
import type { RoutingJob, RoutingProblem, RoutingVehicle } from "./problem";
import { checkSolomon, solomonProblem, type SolomonInstance } from "./solomon";
import c101 from "../../../shared/routing/solomon/c101.json";
import r101 from "../../../shared/routing/solomon/r101.json";
import r102 from "../../../shared/routing/solomon/r102.json";
import rc201 from "../../../shared/routing/solomon/rc201.json";

const FILES: Record<string, SolomonInstance> = { c101, r101, r102, rc201 };

/** The instance with its first customers only. */
const solomon = (name: string, customers: number): SolomonInstance => {
  const all = FILES[name]!;
  return { ...all, customers: all.customers.slice(0, customers) };
};

/** A bounded, reproducible run: an iteration cap and no clock. */
const LIMITS = { maxIterations: 400, timeLimitMs: Infinity, seed: 7 };

const routesOf = (problem: RoutingProblem, options = LIMITS) =>
  planRoutes(problem, options).routes.map((route) => route.stops.map((stop) => Number(stop.jobId)));

describe("planRoutes on Solomon's instances cut to 25 customers", () => {
  for (const file of ["c101", "r101", "rc201"]) {
    it(`${file}: every customer once, every window, capacity and the depot's hours kept`, () => {
      const instance = solomon(file, 25);
      const plan = planRoutes(solomonProblem(instance), LIMITS);
      expect(plan.unassigned).toEqual([]);
      const check = checkSolomon(instance, routesOf(solomonProblem(instance)));
      expect(check.errors).toEqual([]);
      expect(plan.distance).toBeCloseTo(check.distance, 6);
    });
  }

  it("gives the same plan for the same seed", () => {
    const problem = solomonProblem(solomon("r102", 25));
    expect(planRoutes(problem, LIMITS)).toEqual(planRoutes(problem, LIMITS));
  });

  it("hands the thread back every few iterations when run in steps, and gives the same plan", async () => {
    // The Worker runs a plan this way so that a plan of seconds never holds up another workspace's
    // requests on the same isolate (issue 54).
    const problem = solomonProblem(solomon("r102", 25));
    let pauses = 0;
    const stepped = await runCooperatively(planRoutesSteps(problem, LIMITS), async () => {
      pauses++;
    });
    expect(stepped).toEqual(planRoutes(problem, LIMITS));
    expect(pauses).toBeGreaterThanOrEqual(LIMITS.maxIterations / 16);
  });

  it("says when each vehicle arrives and starts, never after a window closes", () => {
    const instance = solomon("c101", 25);
    const plan = planRoutes(solomonProblem(instance), LIMITS);
    const windows = new Map(instance.customers.map((c) => [String(c.id), c]));
    for (const stop of plan.routes.flatMap((route) => route.stops)) {
      const c = windows.get(stop.jobId)!;
      expect(stop.start).toBeGreaterThanOrEqual(Math.max(stop.arrival, c.ready));
      expect(stop.start).toBeLessThanOrEqual(c.due);
    }
  });
});

/** Places on a line: place i is i minutes from place 0 (distance in km, the same). */
const line = (places: number): RoutingProblem["travel"] => ({
  places,
  time: (a, b) => Math.abs(a - b),
  distance: (a, b) => Math.abs(a - b),
});
const job = (id: string, over: Partial<RoutingJob> = {}): RoutingJob => ({
  id,
  location: 1,
  windowStart: 0,
  windowEnd: 100,
  serviceTime: 5,
  size: 1,
  ...over,
});
const van = (id: string, over: Partial<RoutingVehicle> = {}): RoutingVehicle => ({
  id,
  start: 0,
  end: 0,
  shiftStart: 0,
  shiftEnd: 100,
  capacity: 3,
  ...over,
});

describe("planRoutes leaves a job out only with a reason", () => {
  it("names the job larger than any vehicle, the one no vehicle reaches in its window and the one asking for a skill no one has", () => {
    const plan = planRoutes(
      {
        jobs: [
          job("fits"),
          job("crate", { size: 4 }),
          job("far", { location: 9, windowEnd: 8 }),
          job("fridge", { skills: ["refrigerated"] }),
        ],
        vehicles: [van("van")],
        travel: line(10),
      },
      LIMITS,
    );
    expect(plan.routes.map((route) => route.stops.map((stop) => stop.jobId))).toEqual([["fits"]]);
    expect(plan.unassigned).toEqual([
      { jobId: "crate", reason: "too_large" },
      { jobId: "far", reason: "unreachable_in_window" },
      { jobId: "fridge", reason: "missing_skills" },
    ]);
  });

  it("a job its shift cannot bring back from in time is unreachable", () => {
    const plan = planRoutes(
      {
        jobs: [job("late", { location: 5, windowEnd: 100 })],
        vehicles: [van("van", { shiftEnd: 12 })],
        travel: line(6),
      },
      LIMITS,
    );
    expect(plan.unassigned).toEqual([{ jobId: "late", reason: "unreachable_in_window" }]);
  });

  it("says the fleet is full when each job fits alone but not all together", () => {
    const jobs = [1, 2, 3, 4].map((n) => job(`stop ${n}`, { location: n, size: 1 }));
    const plan = planRoutes({ jobs, vehicles: [van("van", { capacity: 3 })], travel: line(5) }, LIMITS);
    expect(plan.routes[0]!.stops).toHaveLength(3);
    expect(plan.unassigned).toEqual([
      { jobId: expect.stringMatching(/^stop /) as unknown as string, reason: "no_room_left" },
    ]);
  });

  it("gives a job with a skill to the vehicle that has it", () => {
    const plan = planRoutes(
      {
        jobs: [job("fridge", { skills: ["refrigerated"] })],
        vehicles: [van("van"), van("cold van", { skills: ["refrigerated"] })],
        travel: line(2),
      },
      LIMITS,
    );
    expect(plan.routes.map((route) => route.vehicleId)).toEqual(["cold van"]);
  });
});

describe("checkSolomon", () => {
  it("finds a missed window, a customer served twice and one never served", () => {
    const instance = solomon("c101", 3);
    const ids = instance.customers.map((c) => c.id);
    const check = checkSolomon(instance, [[ids[0]!, ids[0]!]]);
    expect(check.errors.some((e) => /visited 2 times/.test(e))).toBe(true);
    expect(check.errors.some((e) => /visited 0 times/.test(e))).toBe(true);
    expect(check.errors.some((e) => /served at/.test(e))).toBe(true);
  });
});
