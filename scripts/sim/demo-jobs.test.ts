import { describe, expect, it } from "vitest";
import { clockMinutes, jobBodySchema } from "../../shared/jobs/jobs";
import { chicagoVehicles, planDemoJobs, RETURN_VISIT_MINUTES } from "./demo-jobs";
import { cities } from "./routes";

const beacons = Array.from({ length: 12 }, (_, i) => ({
  id: `device-${String(i).padStart(2, "0")}`,
  vehicleId: `v${i}`,
  lastReportAt: null,
}));
const chicago = cities.find((c) => c.name.startsWith("Chicago"))!;
const onChicagoRoute = (lat: number, lon: number) =>
  chicago.routes.some((r) => r.line.some(([a, b]) => a === lat && b === lon));

describe("the demo's day of jobs", () => {
  const now = Date.parse("2026-11-28T16:00:00Z"); // 10:00 in Chicago
  const vehicles = chicagoVehicles(beacons, new Map());
  const jobs = planDemoJobs(vehicles, "2026-11-28", now, "America/Chicago");

  it("plans the three Chicago vehicles' stops on the streets they drive, each a valid job", () => {
    expect(vehicles).toHaveLength(3);
    expect(jobs).toHaveLength(3 * 4 + 1);
    for (const { body } of jobs) {
      expect(jobBodySchema.safeParse(body).success, body.title).toBe(true);
      expect(onChicagoRoute(body.location!.latitude!, body.location!.longitude!), body.title).toBe(true);
    }
    // Each vehicle's stops lie on its own route.
    for (const v of vehicles)
      for (const { body } of jobs.filter((j) => j.body.vehicleId === v.vehicleId))
        expect(v.line.some(([a, b]) => a === body.location!.latitude && b === body.location!.longitude)).toBe(true);
  });

  it("has a window closing a minute from now (to be late), one stop per vehicle done with proof, and one unassigned", () => {
    const closing = jobs.filter((j) => j.body.windowEnd === "10:01");
    expect(closing.map((j) => j.body.title)).toEqual(["Urgent delivery #4400 (window closing)"]);
    expect(jobs.filter((j) => j.completeWithProof)).toHaveLength(3);
    expect(jobs.filter((j) => !j.body.vehicleId)).toHaveLength(1);
    for (const { body } of jobs)
      expect(clockMinutes(body.windowEnd!)).toBeGreaterThanOrEqual(clockMinutes(body.windowStart!));
  });

  it("keeps windows within the day near midnight", () => {
    const late = planDemoJobs(vehicles, "2026-11-28", Date.parse("2026-11-29T05:30:00Z"), "America/Chicago");
    for (const { body } of late) expect(jobBodySchema.safeParse(body).success, body.title).toBe(true);
  });

  it("has one stop that takes longer than a stay, at the end the vehicle comes back to: a return visit", () => {
    const long = jobs.filter((j) => Number(j.body.durationMinutes ?? 0) > 2);
    expect(long.map((j) => [j.body.title, j.body.durationMinutes])).toEqual([
      ["Deliver parts #4200 (two trips)", RETURN_VISIT_MINUTES],
    ]);
    // at the near end, where the vehicle's day is done first and which it drives back to
    const first = jobs.find((j) => j.body.vehicleId === long[0]!.body.vehicleId)!;
    expect(long[0]!.body.location).toMatchObject({ latitude: first.body.location!.latitude });
  });
});
