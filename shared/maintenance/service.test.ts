import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  scheduleAfterPatch,
  scheduleDue,
  serviceEntryBodySchema,
  serviceScheduleBodySchema,
  type ScheduleBasis,
} from "./service";

const t0 = Date.UTC(2026, 0, 1);
const basis = (over: Partial<ScheduleBasis>): ScheduleBasis => ({
  everyMiles: null,
  everyEngineHours: null,
  everyDays: null,
  lastDoneAt: t0,
  lastDoneOdometerMiles: null,
  lastDoneEngineHours: null,
  ...over,
});
const reading = (odometerMiles: number | null, engineHours: number | null = null) => ({ odometerMiles, engineHours });

describe("scheduleDue", () => {
  it("is ok, due soon within 10 % of a miles interval, and overdue at the due figure", () => {
    const s = basis({ everyMiles: 5000, lastDoneOdometerMiles: 10_000 });
    expect(scheduleDue(s, reading(14_499), t0)).toMatchObject({
      status: "ok",
      nextDueMiles: 15_000,
      nextDueAt: null,
      nextDueEngineHours: null,
    });
    expect(scheduleDue(s, reading(14_500), t0).status).toBe("due_soon");
    expect(scheduleDue(s, reading(14_999), t0).status).toBe("due_soon");
    expect(scheduleDue(s, reading(15_000), t0).status).toBe("overdue");
  });

  it("counts days from when it was last done", () => {
    const s = basis({ everyDays: 100 });
    expect(scheduleDue(s, reading(null), t0 + 89 * DAY_MS)).toMatchObject({
      status: "ok",
      nextDueAt: t0 + 100 * DAY_MS,
    });
    expect(scheduleDue(s, reading(null), t0 + 90 * DAY_MS).status).toBe("due_soon");
    expect(scheduleDue(s, reading(null), t0 + 100 * DAY_MS).status).toBe("overdue");
  });

  it("counts engine hours, and an unknown figure is never due by itself", () => {
    const s = basis({ everyEngineHours: 250, lastDoneEngineHours: 1000 });
    expect(scheduleDue(s, reading(null, null), t0).status).toBe("ok");
    expect(scheduleDue(s, reading(null, 1230), t0)).toMatchObject({ status: "due_soon", nextDueEngineHours: 1250 });
    expect(scheduleDue(s, reading(null, 1251), t0).status).toBe("overdue");
  });

  it("takes whichever interval comes first", () => {
    const s = basis({ everyMiles: 5000, lastDoneOdometerMiles: 0, everyDays: 180 });
    // few miles, but the days have run out
    expect(scheduleDue(s, reading(100), t0 + 181 * DAY_MS).status).toBe("overdue");
    // early in the days, but nearly the miles
    expect(scheduleDue(s, reading(4600), t0 + DAY_MS).status).toBe("due_soon");
    expect(scheduleDue(s, reading(100), t0 + DAY_MS).status).toBe("ok");
  });

  it("does not count miles or hours without a baseline (made before the vehicle's first odometer)", () => {
    expect(scheduleDue(basis({ everyMiles: 1000, everyEngineHours: 100 }), reading(50_000, 900), t0)).toMatchObject({
      status: "ok",
      nextDueMiles: null,
      nextDueEngineHours: null,
    });
  });
});

describe("service bodies", () => {
  it("refuse a schedule without any interval, naming the field", () => {
    const result = serviceScheduleBodySchema.safeParse({ vehicleId: "v", name: "Oil" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["everyMiles"]);
  });

  it("accept a day or an ISO time as when it was last done, and refuse a day that does not exist", () => {
    expect(
      serviceScheduleBodySchema.safeParse({ vehicleId: "v", name: "Oil", everyDays: 90, lastDoneAt: "2026-01-31" })
        .success,
    ).toBe(true);
    expect(
      serviceScheduleBodySchema.safeParse({
        vehicleId: "v",
        name: "Oil",
        everyDays: 90,
        lastDoneAt: "2026-01-31T08:00:00Z",
      }).success,
    ).toBe(true);
    expect(serviceEntryBodySchema.safeParse({ vehicleId: "v", date: "2026-02-30" }).success).toBe(false);
  });
});

describe("scheduleAfterPatch", () => {
  const oil = { ...basis({ everyMiles: 5000, lastDoneOdometerMiles: 10_000 }), name: "Oil change" };

  it("changes the intervals given (null removes one) over the same last-done basis, and says so", () => {
    expect(scheduleAfterPatch(oil, { everyMiles: null, everyDays: 180 }, t0 + DAY_MS)).toEqual({
      schedule: { ...oil, everyMiles: null, everyDays: 180 },
      intervalsChanged: true,
    });
  });

  it("renames without a new period, and moves the basis only to figures given", () => {
    expect(scheduleAfterPatch(oil, { name: "Synthetic oil", lastDoneOdometerMiles: null }, t0)).toEqual({
      schedule: { ...oil, name: "Synthetic oil" },
      intervalsChanged: false,
    });
    const moved = scheduleAfterPatch(
      oil,
      { lastDoneAt: "2026-01-10", lastDoneOdometerMiles: 12_000 },
      t0 + 30 * DAY_MS,
    );
    expect(moved?.schedule).toMatchObject({ lastDoneAt: Date.UTC(2026, 0, 10), lastDoneOdometerMiles: 12_000 });
  });

  it("is null when no interval would be left", () => {
    expect(scheduleAfterPatch(oil, { everyMiles: null }, t0)).toBeNull();
  });
});
