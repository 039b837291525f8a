import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import { SERVICE_ENTRY_FIELD_TABLE, serviceEntryTable } from "./service-entry-fields";
import { SERVICE_SCHEDULE_FIELD_TABLE, serviceScheduleTable } from "./service-schedule-fields";
import {
  createServiceScheduleArgs,
  logServiceEntryArgs,
  serviceEntryBodySchema,
  serviceEntryFormSchema,
  serviceScheduleBodySchema,
  serviceSchedulePatchSchema,
  updateServiceScheduleArgs,
} from "./service";
import { serviceMutators } from "./service-mutators";
import {
  decodeSchedule,
  decodeServiceEntry,
  encodeSchedule,
  encodeServiceEntry,
  serviceEntryKey,
  serviceScheduleKey,
  type ScheduleWire,
  type ServiceEntryWire,
} from "../sync/maintenance-sync";

/**
 * The service tables (docs/decisions/0104) reach every place their fields are listed: the body and
 * the mutators' arguments check each field, the mutator keeps it, the synced value carries it under
 * its own key (left out when none) and reads the values a tab synced before the tables, and the
 * form lists it where flagged.
 */
describe("the service entry table", () => {
  const examples = Object.fromEntries(serviceEntryTable.keys.map((k) => [k, SERVICE_ENTRY_FIELD_TABLE[k].example]));
  const nulls = Object.fromEntries(serviceEntryTable.keys.map((k) => [k, null]));
  const base = { vehicleId: "v1", date: "2026-11-02" };
  const fixed = { photoIds: [], scheduleIds: [], resolvesIssueIds: [] };

  it("is checked by the body and the Log service mutator's arguments, each keeping its value", () => {
    expect(serviceEntryBodySchema.parse({ ...base, ...examples })).toEqual({ ...base, ...examples, ...fixed });
    expect(logServiceEntryArgs.parse({ id: "e", ...base, ...examples })).toMatchObject(examples);
    for (const k of serviceEntryTable.keys)
      expect(serviceEntryBodySchema.safeParse({ ...base, [k]: {} }).success, k).toBe(false);
    expect(serviceEntryBodySchema.parse({ ...base, ...nulls })).toEqual({ ...base, ...nulls, ...fixed });
  });

  it("keeps the body's key order: the table's fields after the date, the schedules after the engine hours", () => {
    const keys = serviceEntryTable.keys.flatMap((k) => (k === "engineHours" ? [k, "scheduleIds"] : [k]));
    expect(Object.keys(serviceEntryBodySchema.shape)).toEqual([
      "vehicleId",
      "date",
      ...keys,
      "photoIds",
      "resolvesIssueIds",
    ]);
  });

  it("is kept by the Log service mutator and travels under its own short key, left out when none", async () => {
    const { tx, map } = memoryTransaction();
    await serviceMutators.logServiceEntry(tx, { id: "e1", ...base, ...examples });
    const wire = map.get(serviceEntryKey("e1")) as ServiceEntryWire;
    expect(decodeServiceEntry("e1", wire)).toMatchObject(examples);
    for (const k of serviceEntryTable.keys) expect(wire).toHaveProperty(SERVICE_ENTRY_FIELD_TABLE[k].wire);
    await serviceMutators.logServiceEntry(tx, { id: "e2", ...base });
    expect(Object.keys(map.get(serviceEntryKey("e2")) as object).sort()).toEqual(["d", "t", "v"]);
    const wires = serviceEntryTable.keys.map((k) => SERVICE_ENTRY_FIELD_TABLE[k].wire);
    expect(new Set([...wires, "v", "d", "ph", "sc", "ri", "t"]).size).toBe(wires.length + 6);
  });

  it("reads and writes the synced value as a tab from before the table does (same keys, same order)", () => {
    const yesterdays = {
      ...{ v: "v1", d: "2026-11-02", t: 1_790_000_000, o: 45_210.5, h: 1_820.25, x: "Pads and rotors" },
      ...{ c: 24_990, vn: "Brake Shop", nt: "Rear pads", ph: ["p1"], sc: ["s1"], ri: ["i1"] },
    } satisfies ServiceEntryWire;
    const { id: _id, ...decoded } = decodeServiceEntry("e1", yesterdays);
    const fixed = ["vehicleId", "date", "photoIds", "scheduleIds", "resolvesIssueIds", "createdAt"];
    expect(Object.keys(decoded).sort()).toEqual([...fixed, ...serviceEntryTable.keys].sort());
    expect(decoded).toMatchObject({
      ...{ vehicleId: "v1", date: "2026-11-02", odometerMiles: 45_210.5, engineHours: 1_820.25 },
      ...{ description: "Pads and rotors", costCents: 24_990, vendor: "Brake Shop", notes: "Rear pads" },
      ...{ photoIds: ["p1"], scheduleIds: ["s1"], resolvesIssueIds: ["i1"], createdAt: 1_790_000_000_000 },
    });
    const again = encodeServiceEntry(decoded);
    expect(again).toEqual(yesterdays);
    // written in the order it always was
    expect(Object.keys(again)).toEqual(Object.keys(yesterdays));
  });

  it("lists the Log service form's inputs in its order, the cost typed in dollars", () => {
    expect(serviceEntryTable.formFields.map((f) => f.name)).toEqual(
      serviceEntryTable.keys.filter((k) => SERVICE_ENTRY_FIELD_TABLE[k].form),
    );
    expect(serviceEntryTable.formFields.find((f) => f.name === "costCents")).toMatchObject({
      label: "Cost ($)",
      scale: 100,
    });
    // the form's cost is typed in dollars and given in cents; a dollar figure past the cap is refused, words too
    const parsed = serviceEntryFormSchema.safeParse({ date: "2026-11-02", costCents: "249.90" });
    expect(parsed.success && parsed.data.costCents).toBe(24_990);
    expect(serviceEntryFormSchema.safeParse({ date: "2026-11-02", costCents: "100000001" }).success).toBe(false);
    expect(serviceEntryFormSchema.safeParse({ date: "2026-11-02", costCents: "lots" }).success).toBe(false);
  });
});

describe("the service schedule table", () => {
  const keys = serviceScheduleTable.keys;
  const examples = Object.fromEntries(keys.map((k) => [k, SERVICE_SCHEDULE_FIELD_TABLE[k].example]));
  const intervals = keys.filter((k) => k !== "name");
  const read = (map: Map<string, unknown>, id: string) => decodeSchedule(id, map.get(serviceScheduleKey(id)) as never);

  it("is checked by the body, the patch and the mutators' arguments, each keeping its value", () => {
    expect(serviceScheduleBodySchema.parse({ vehicleId: "v1", ...examples })).toEqual({ vehicleId: "v1", ...examples });
    expect(serviceSchedulePatchSchema.parse(examples)).toEqual(examples);
    expect(createServiceScheduleArgs.parse({ id: "s", vehicleId: "v1", ...examples })).toMatchObject(examples);
    expect(updateServiceScheduleArgs.parse({ id: "s", ...examples })).toMatchObject(examples);
    for (const k of keys) expect(serviceSchedulePatchSchema.safeParse({ [k]: {} }).success, k).toBe(false);
    expect(serviceSchedulePatchSchema.safeParse({ name: null }).success).toBe(false);
    expect(serviceScheduleBodySchema.safeParse({ vehicleId: "v1", everyDays: 30 }).success).toBe(false);
    // the rule beside the table: at least one interval
    expect(serviceScheduleBodySchema.safeParse({ vehicleId: "v1", name: "Oil" }).success).toBe(false);
  });

  it("keeps what the mutators give, changes only what a patch names, and removes an interval with null", async () => {
    const { tx, map } = memoryTransaction();
    await serviceMutators.createServiceSchedule(tx, { id: "s", vehicleId: "v1", ...examples } as never);
    expect(read(map, "s")).toMatchObject(examples);
    await serviceMutators.updateServiceSchedule(tx, { id: "s", name: "Oil and filter" });
    expect(read(map, "s")).toMatchObject({ ...examples, name: "Oil and filter" });
    await serviceMutators.updateServiceSchedule(tx, { id: "s", everyMiles: null, everyEngineHours: null });
    expect(read(map, "s")).toMatchObject({ everyMiles: null, everyEngineHours: null, everyDays: examples.everyDays });
    // the last interval is not removed: the edit changes nothing
    await serviceMutators.updateServiceSchedule(tx, { id: "s", everyDays: null });
    expect(read(map, "s")).toMatchObject({ everyDays: examples.everyDays });
  });

  it("travels in the synced value under its own short key, an interval left out when none", () => {
    const none = Object.fromEntries(intervals.map((k) => [k, null]));
    const basis = { lastDoneAt: 1_790_000_000_000, lastDoneOdometerMiles: null, lastDoneEngineHours: null };
    const plain = encodeSchedule({ vehicleId: "v1", name: "Oil", ...none, ...basis, announced: null } as never);
    expect(Object.keys(plain).sort()).toEqual(["at", "n", "v"]);
    const wires = keys.map((k) => SERVICE_SCHEDULE_FIELD_TABLE[k].wire);
    expect(new Set([...wires, "v", "at", "om", "oh", "an"]).size).toBe(wires.length + 5);
    expect(intervals.length).toBe(3);
  });

  it("reads and writes the synced value as a tab from before the table does (same keys)", () => {
    const yesterdays = {
      ...{ v: "v1", n: "Oil change", at: 1_790_000_000, mi: 5_000, h: 250.5, d: 180 },
      ...{ om: 10_000, oh: 120, an: 2 },
    } satisfies ScheduleWire;
    const { id: _id, ...decoded } = decodeSchedule("s1", yesterdays);
    const fixed = ["vehicleId", "lastDoneAt", "lastDoneOdometerMiles", "lastDoneEngineHours", "announced"];
    expect(Object.keys(decoded).sort()).toEqual([...fixed, ...keys].sort());
    expect(decoded).toMatchObject({
      ...{ vehicleId: "v1", name: "Oil change", everyMiles: 5_000, everyEngineHours: 250.5, everyDays: 180 },
      ...{ lastDoneAt: 1_790_000_000_000, lastDoneOdometerMiles: 10_000, lastDoneEngineHours: 120 },
      announced: "overdue",
    });
    expect(encodeSchedule(decoded)).toEqual(yesterdays);
  });

  it("lists the Add schedule and Edit forms' inputs in its order", () => {
    expect(serviceScheduleTable.formFields.map((f) => f.name)).toEqual(
      keys.filter((k) => SERVICE_SCHEDULE_FIELD_TABLE[k].form),
    );
    // the labels the forms always had
    expect(serviceScheduleTable.formFields.map((f) => f.label)).toEqual(
      expect.arrayContaining(["Name", "Every (mi)", "Every (engine hours)", "Every (days)"]),
    );
  });
});
