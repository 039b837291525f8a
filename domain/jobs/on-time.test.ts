import { describe, expect, it } from "vitest";
import { onTimeFigures, type OnTimeJob } from "./on-time";

const at = (iso: string) => Date.parse(iso);
const job = (fields: Partial<OnTimeJob>): OnTimeJob => ({
  vehicleId: "v1",
  date: "2026-11-02",
  status: "scheduled",
  windowEnd: null,
  arrivedAt: null,
  departedAt: null,
  completedAt: null,
  ...fields,
});

describe("the on-time report's figures", () => {
  it("counts jobs, completions, on time and late against the window in the workspace's zone, skips and dwell", () => {
    const figures = onTimeFigures(
      [
        // Chicago, 2 November 2026 (CST, -6): a window to 10:00 ends at 16:00 UTC
        job({
          status: "completed",
          windowEnd: "10:00",
          arrivedAt: at("2026-11-02T15:50:00Z"),
          departedAt: at("2026-11-02T16:02:00Z"),
          completedAt: at("2026-11-02T16:02:00Z"),
        }),
        job({
          status: "completed",
          windowEnd: "10:00",
          arrivedAt: at("2026-11-02T16:05:00Z"),
          departedAt: at("2026-11-02T16:13:00Z"),
          completedAt: at("2026-11-02T16:13:00Z"),
        }),
        job({ status: "completed", completedAt: at("2026-11-02T18:00:00Z") }), // marked done, no window: on time
        job({ status: "skipped" }),
        job({ status: "en_route" }),
        job({ status: "cancelled" }),
        job({ vehicleId: "v2", status: "arrived", windowEnd: "08:00", arrivedAt: at("2026-11-02T15:00:00Z") }),
        job({ vehicleId: "v2", status: "arrived", arrivedAt: at("2026-11-02T15:00:00Z") }),
      ],
      "America/Chicago",
    );
    expect(figures.get("v1")).toEqual({
      jobs: 5,
      completed: 3,
      onTime: 2,
      late: 1,
      skipped: 1,
      averageDwellMinutes: 10,
    });
    // Arrived (late) but not completed: neither on time nor late yet; both are parts of "completed".
    expect(figures.get("v2")).toEqual({
      jobs: 2,
      completed: 0,
      onTime: 0,
      late: 0,
      skipped: 0,
      averageDwellMinutes: null,
    });
    for (const f of figures.values()) expect(f.onTime + f.late).toBe(f.completed);
  });

  it("groups by local day when asked, by the same rule: the days add up to the vehicles", () => {
    const jobs = [
      job({ vehicleId: "v1", date: "2026-11-02", status: "completed", completedAt: at("2026-11-02T18:00:00Z") }),
      job({ vehicleId: "v2", date: "2026-11-02", status: "skipped" }),
      job({
        vehicleId: "v1",
        date: "2026-11-03",
        status: "completed",
        windowEnd: "08:00",
        arrivedAt: at("2026-11-03T15:00:00Z"),
        completedAt: at("2026-11-03T15:20:00Z"),
      }),
      job({ vehicleId: "v2", date: "2026-11-03", status: "cancelled" }),
    ];
    const byDay = onTimeFigures(jobs, "America/Chicago", (j) => j.date);
    expect(byDay.get("2026-11-02")).toMatchObject({ jobs: 2, completed: 1, onTime: 1, late: 0, skipped: 1 });
    expect(byDay.get("2026-11-03")).toMatchObject({ jobs: 1, completed: 1, onTime: 0, late: 1, skipped: 0 });
    const total = (figures: Map<string, { jobs: number; onTime: number; late: number }>) =>
      [...figures.values()].reduce((s, f) => [s[0]! + f.jobs, s[1]! + f.onTime, s[2]! + f.late], [0, 0, 0]);
    expect(total(byDay)).toEqual(total(onTimeFigures(jobs, "America/Chicago")));
  });

  it("counts a stop's time on site over its visits: not the time away between them", () => {
    const [a1, d1] = [at("2026-11-02T15:00:00Z"), at("2026-11-02T15:04:00Z")];
    const [a2, d2] = [at("2026-11-02T15:40:00Z"), at("2026-11-02T15:46:00Z")];
    const visits = [
      { arrivedAt: a1, departedAt: d1 },
      { arrivedAt: a2, departedAt: d2 },
    ];
    const figures = onTimeFigures(
      [job({ status: "completed", arrivedAt: a1, departedAt: d2, completedAt: d2, visits })],
      "UTC",
    );
    expect(figures.get("v1")!.averageDwellMinutes).toBe(10);
  });
});
