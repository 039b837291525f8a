import { describe, expect, it } from "vitest";
import { distanceMetres, pointAlong, type Polyline } from "./geo";
import { seededRandom } from "./random";
import { cities } from "./routes";
import { advance, createVehicle, REFUEL_BELOW, reportOf, type SimReport, type SimVehicle } from "./vehicle";

const T0 = Date.parse("2026-11-02T08:00:00Z");
const STEP = 4_000;

/** Runs a vehicle for `hours` with a report every 4 s; returns its reports and phases. */
function run(line: Polyline, seed: number, hours: number, start?: Partial<SimVehicle>) {
  const random = seededRandom(seed);
  let v: SimVehicle = { ...createVehicle(`dev-${seed}`, line, random, T0), ...start };
  const reports: SimReport[] = [reportOf(v)];
  const phases: SimVehicle["phase"]["kind"][] = [v.phase.kind];
  for (let t = T0 + STEP; t <= T0 + hours * 3_600_000; t += STEP) {
    v = advance(v, t, random);
    reports.push(reportOf(v));
    phases.push(v.phase.kind);
  }
  return { reports, phases };
}

/** Distance from p to the nearest point of the line, sampled every 10 m. */
function offRoute(line: Polyline, p: SimReport) {
  let best = Infinity;
  for (let m = 0; ; m += 10) {
    const q = pointAlong(line, m);
    best = Math.min(best, distanceMetres(q, p));
    if (m > 20_000 || (q.latitude === line.at(-1)![0] && q.longitude === line.at(-1)![1])) break;
  }
  return best;
}

const line = cities[0]!.routes[0]!.line;

describe("a simulated vehicle", () => {
  it("stays on its street route and moves no faster than it reports", () => {
    const { reports } = run(line, 1, 2);
    for (const r of reports.filter((_, i) => i % 15 === 0)) expect(offRoute(line, r)).toBeLessThan(15);
    for (let i = 1; i < reports.length; i++) {
      const moved = distanceMetres(reports[i - 1]!, reports[i]!);
      // 17 m/s at most, plus a few metres of GPS noise at both ends.
      expect(moved).toBeLessThan(17 * (STEP / 1000) + 10);
    }
  });

  it("drives, parks with the ignition off, and drives again", () => {
    const { reports, phases } = run(line, 2, 2);
    expect(phases).toContain("driving");
    expect(phases).toContain("parked");
    const trips = phases.filter((p, i) => p === "driving" && phases[i - 1] !== "driving").length;
    expect(trips).toBeGreaterThanOrEqual(3);
    reports.forEach((r, i) => {
      if (phases[i] === "parked") expect(r).toMatchObject({ ignition: false, speed: 0 });
      if (phases[i] === "idling") expect(r).toMatchObject({ ignition: true, speed: 0 });
    });
  });

  it("only ever adds to the odometer, burns fuel while driving, and refuels when low", () => {
    const { reports, phases } = run(line, 3, 3, { fuel: REFUEL_BELOW + 1 });
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]!.odometer).toBeGreaterThanOrEqual(reports[i - 1]!.odometer);
      expect(reports[i]!.fuel).toBeGreaterThanOrEqual(0);
      expect(reports[i]!.fuel).toBeLessThanOrEqual(100);
      if (phases[i] === "driving" && reports[i]!.speed > 0)
        expect(reports[i]!.fuel).toBeLessThanOrEqual(reports[i - 1]!.fuel);
    }
    const lowest = Math.min(...reports.map((r) => r.fuel));
    expect(lowest).toBeLessThan(REFUEL_BELOW);
    const afterLowest = reports.slice(reports.findIndex((r) => r.fuel === lowest));
    expect(Math.max(...afterLowest.map((r) => r.fuel))).toBeGreaterThan(90);
    expect(reports.at(-1)!.odometer - reports[0]!.odometer).toBeGreaterThan(10_000);
  });

  it("is now and then towed: moving with the ignition off, the odometer unchanged", () => {
    // Every moving report of a tow is checked (not only those that already look right), in the
    // first seed that tows at all.
    let towed: { report: SimReport; before: SimReport }[] = [];
    for (let seed = 10; seed < 60 && towed.length === 0; seed++) {
      const { reports, phases } = run(line, seed, 3);
      towed = reports.flatMap((report, i) =>
        i > 0 && phases[i] === "towed" && report.speed > 0 ? [{ report, before: reports[i - 1]! }] : [],
      );
    }
    expect(towed.length).toBeGreaterThan(0);
    for (const { report, before } of towed) {
      expect(report.ignition).toBe(false);
      expect(report.odometer).toBe(before.odometer);
    }
  });

  it("replays exactly from the same seed", () => {
    expect(run(line, 7, 0.5).reports).toEqual(run(line, 7, 0.5).reports);
  });

  it("continues from its last known position, odometer and fuel", () => {
    const random = seededRandom(1);
    const end = line.at(-1)!;
    const v = createVehicle("dev", line, random, T0, {
      latitude: end[0],
      longitude: end[1],
      odometer: 42_000_000,
      fuel: 55,
    });
    expect(reportOf(v)).toMatchObject({ odometer: 42_000_000, fuel: 55, ignition: false });
    expect(distanceMetres(v, { latitude: end[0], longitude: end[1] })).toBeLessThan(1);
    // Between two intersections it picks up where it was, not at the nearest corner.
    const midway = pointAlong(line, 700);
    const w = createVehicle("dev", line, random, T0, { ...midway, odometer: 1, fuel: 1 });
    expect(distanceMetres(w, midway)).toBeLessThan(5);
  });
});
