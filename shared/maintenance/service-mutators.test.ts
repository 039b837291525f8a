import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import { issueTable } from "./issue-fields";
import { encodeIssue, issueKey, ISSUE_STATUSES } from "./issues";
import { decodeSchedule, encodeSchedule, serviceEntryKey, serviceScheduleKey } from "../sync/maintenance-sync";
import { serviceMutators } from "./service-mutators";
import { serviceScheduleTable } from "./service-schedule-fields";
import { telemetryKey } from "../fleet/telemetry";
import { METRES_PER_MILE } from "../units/units";

const DAY = 86_400_000;
const vehicleId = "v1";
const schedule = (lastDoneAt: number) =>
  encodeSchedule({
    vehicleId,
    ...serviceScheduleTable.given({ name: "Oil change", everyMiles: 5000, everyDays: 180 }),
    lastDoneAt,
    lastDoneOdometerMiles: 10_000,
    lastDoneEngineHours: null,
    announced: "overdue",
  });

describe("logServiceEntry in the browser's store", () => {
  it("shows the entry, restarts the schedule from the synced odometer and resolves the issue, as the server will", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { map, tx } = memoryTransaction({
      [serviceScheduleKey("s1")]: schedule(Date.now() - 200 * DAY),
      [telemetryKey(vehicleId)]: { s: "off", st: 0, v: 0, o: 15_400 * METRES_PER_MILE, la: 0, lo: 0, t: 0 },
      [issueKey("i1")]: encodeIssue({
        number: 1,
        vehicleId,
        ...issueTable.given({ title: "Leak", priority: "high" }),
        description: null,
        status: "open",
        reportedByUserId: null,
        assigneeUserId: null,
        photoIds: [],
        sourceInspectionId: null,
        sourceAlertId: null,
        createdAt: 0,
        updatedAt: 0,
      }),
    });
    await serviceMutators.logServiceEntry(tx, {
      id: "e1",
      vehicleId,
      date: today,
      description: "Oil and filter",
      costCents: 8950,
      scheduleIds: ["s1"],
      resolvesIssueIds: ["i1"],
    });
    expect(map.get(serviceEntryKey("e1"))).toMatchObject({ v: vehicleId, d: today, x: "Oil and filter", c: 8950 });
    const restarted = decodeSchedule("s1", map.get(serviceScheduleKey("s1")) as never);
    expect(restarted).toMatchObject({ lastDoneOdometerMiles: 15_400, announced: null });
    expect(restarted.lastDoneAt).toBeGreaterThan(Date.now() - DAY);
    expect((map.get(issueKey("i1")) as { s: number }).s).toBe(ISSUE_STATUSES.indexOf("resolved"));
  });

  it("leaves a schedule done after the entry's day where it is (history typed in late)", async () => {
    const lastDoneAt = Date.now() - 2 * DAY;
    const { map, tx } = memoryTransaction({ [serviceScheduleKey("s1")]: schedule(lastDoneAt) });
    await serviceMutators.logServiceEntry(tx, { id: "e1", vehicleId, date: "2025-01-01", scheduleIds: ["s1"] });
    expect(decodeSchedule("s1", map.get(serviceScheduleKey("s1")) as never).lastDoneAt).toBe(
      Math.floor(lastDoneAt / 1000) * 1000,
    );
  });
});

describe("editing and deleting in the browser's store", () => {
  it("edits the interval over the same last-done basis and drops the old period's announcement", async () => {
    const lastDoneAt = Date.now() - 200 * DAY;
    const { map, tx } = memoryTransaction({ [serviceScheduleKey("s1")]: schedule(lastDoneAt) });
    await serviceMutators.updateServiceSchedule(tx, {
      id: "s1",
      name: "Synthetic oil",
      everyDays: null,
      everyMiles: 8000,
    });
    expect(decodeSchedule("s1", map.get(serviceScheduleKey("s1")) as never)).toMatchObject({
      name: "Synthetic oil",
      everyMiles: 8000,
      everyDays: null,
      lastDoneAt: Math.floor(lastDoneAt / 1000) * 1000,
      lastDoneOdometerMiles: 10_000,
      announced: null,
    });
  });

  it("keeps the announcement when only the name changes, and changes nothing when no interval would be left", async () => {
    const { map, tx } = memoryTransaction({ [serviceScheduleKey("s1")]: schedule(Date.now()) });
    await serviceMutators.updateServiceSchedule(tx, { id: "s1", name: "Oil" });
    expect(decodeSchedule("s1", map.get(serviceScheduleKey("s1")) as never)).toMatchObject({
      name: "Oil",
      announced: "overdue",
    });
    const before = map.get(serviceScheduleKey("s1"));
    await serviceMutators.updateServiceSchedule(tx, { id: "s1", everyMiles: null, everyDays: null });
    expect(map.get(serviceScheduleKey("s1"))).toEqual(before);
  });

  it("deletes a schedule or an entry, and a missing one is nothing to do", async () => {
    const { map, tx } = memoryTransaction({
      [serviceScheduleKey("s1")]: schedule(Date.now()),
      [serviceEntryKey("e1")]: { v: vehicleId, d: "2026-01-02", t: 0 },
    });
    await serviceMutators.deleteServiceSchedule(tx, { id: "s1" });
    await serviceMutators.deleteServiceEntry(tx, { id: "e1" });
    await serviceMutators.deleteServiceEntry(tx, { id: "never-synced" });
    expect([...map.keys()]).toEqual([]);
  });
});
