import { describe, expect, it } from "vitest";
import {
  announcedStatus,
  decodeSchedule,
  decodeServiceEntry,
  encodeSchedule,
  encodeServiceEntry,
  scheduleStatus,
  scheduleView,
} from "./maintenance-sync";
import { DAY_MS } from "../maintenance/service";
import { serviceEntryTable } from "../maintenance/service-entry-fields";
import { serviceScheduleTable } from "../maintenance/service-schedule-fields";

describe("synced maintenance values (docs/decisions/0033)", () => {
  const schedule = {
    vehicleId: "v1",
    ...serviceScheduleTable.given({ name: "Oil change", everyMiles: 5000, everyEngineHours: 250 }),
    lastDoneAt: 1_700_000_000_000,
    lastDoneOdometerMiles: 10_000,
    lastDoneEngineHours: 100,
    announced: null,
  };

  it("a schedule and an entry travel without nulls and come back whole", () => {
    expect(encodeSchedule(schedule)).toEqual({
      v: "v1",
      n: "Oil change",
      mi: 5000,
      h: 250,
      om: 10_000,
      oh: 100,
      at: 1_700_000_000,
    });
    expect(decodeSchedule("s1", encodeSchedule(schedule))).toEqual({ id: "s1", ...schedule });
    const entry = {
      vehicleId: "v1",
      date: "2026-11-01",
      ...serviceEntryTable.given({ description: "Tyres", costCents: 4500 }),
      photoIds: [],
      scheduleIds: ["s1"],
      resolvesIssueIds: [],
      createdAt: 1_700_000_000_000,
    };
    expect(encodeServiceEntry(entry)).toEqual({
      v: "v1",
      d: "2026-11-01",
      x: "Tyres",
      c: 4500,
      sc: ["s1"],
      t: 1_700_000_000,
    });
    expect(decodeServiceEntry("e1", encodeServiceEntry(entry))).toEqual({ id: "e1", ...entry });
  });

  it("only the current period's announcement counts", () => {
    expect(announcedStatus("3:overdue", 3)).toBe("overdue");
    expect(announcedStatus("2:overdue", 3)).toBeNull();
    expect(announcedStatus(null, 0)).toBeNull();
  });

  it("computes the status on the device from the odometer and the clock, and takes the server's word for engine hours", () => {
    const now = schedule.lastDoneAt + 10 * DAY_MS;
    expect(scheduleView({ id: "s1", ...schedule }, { odometerMiles: 14_600, engineHours: null }, now)).toMatchObject({
      status: "due_soon",
      nextDueMiles: 15_000,
      nextDueEngineHours: 350,
    });
    expect(scheduleView({ id: "s1", ...schedule }, { odometerMiles: 11_000, engineHours: null }, now).status).toBe(
      "ok",
    );
    expect(
      scheduleView({ id: "s1", ...schedule, announced: "overdue" }, { odometerMiles: 11_000, engineHours: null }, now)
        .status,
    ).toBe("overdue");
  });

  it("scheduleStatus is the status scheduleView gives, without the rest of the view", () => {
    const now = schedule.lastDoneAt + 10 * DAY_MS;
    for (const odometerMiles of [null, 11_000, 14_600, 15_200])
      for (const announced of [undefined, "due_soon", "overdue"] as const) {
        const s = { id: "s1", ...schedule, ...(announced ? { announced } : {}) };
        const reading = { odometerMiles, engineHours: null };
        expect(scheduleStatus(s, reading, now)).toBe(scheduleView(s, reading, now).status);
      }
  });
});
