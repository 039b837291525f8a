import { describe, expect, it } from "vitest";
import type { Alert } from "../../shared/alerts/alert-rules";
import { describeAlert, groupByDay } from "./format";

const alert = (fields: Partial<Alert>): Alert => ({
  id: "a",
  type: "speeding",
  ruleId: "r",
  vehicleId: "v",
  placeId: null,
  at: 0,
  endAt: null,
  latitude: 0,
  longitude: 0,
  peak: null,
  ...fields,
});

describe("inbox formatting", () => {
  it("groups newest-first alerts by the workspace's day, Today first", () => {
    const now = Date.parse("2026-11-23T21:00:00Z");
    const groups = groupByDay(
      // 03:00 UTC on the 21st is still the evening of the 20th in Chicago
      [{ at: now - 1000 }, { at: now - 2000 }, { at: Date.parse("2026-11-21T03:00:00Z") }],
      now,
      { timeZone: "America/Chicago" },
    );
    expect(groups.map((g) => [g.day, g.alerts.length])).toEqual([
      ["Today", 2],
      ["2026-11-20", 1],
    ]);
  });

  it("names the job a job alert is about, as it was when it happened", () => {
    const job = { jobId: "j", jobNumber: 12, jobTitle: "Deliver pallets" };
    expect(describeAlert(alert({ type: "job_arrived", ...job }), undefined)).toBe(
      "Arrived at a job: #12 Deliver pallets",
    );
    expect(describeAlert(alert({ type: "job_late", ...job }), undefined)).toBe("Job running late: #12 Deliver pallets");
    // raised before alerts kept their job: the type alone, never "ongoing"
    expect(describeAlert(alert({ type: "job_completed" }), undefined)).toBe("Job completed");
  });

  it("says what happened with its peak and duration", () => {
    expect(describeAlert(alert({ peak: 84.4, endAt: 180_000 }), undefined)).toBe("Speeding, peak 84 mph, for 3m");
    expect(describeAlert(alert({ type: "idling" }), undefined)).toBe("Idling, ongoing");
    expect(describeAlert(alert({ type: "place_enter", placeId: "p" }), "Depot")).toBe("Entered a place: Depot");
  });

  it("says how many gallons a fuel drop lost, once the tank gave it litres", () => {
    expect(describeAlert(alert({ type: "fuel_drop", peak: 24, endAt: 600_000 }), undefined)).toBe(
      "Fuel drop, 6.3 gal lost, for 10m",
    );
    expect(describeAlert(alert({ type: "fuel_drop" }), undefined)).toBe("Fuel drop, ongoing");
  });
});
