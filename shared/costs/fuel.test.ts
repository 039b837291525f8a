import { describe, expect, it } from "vitest";
import {
  decodeFuelEntry,
  encodeFuelEntry,
  engineHoursAt,
  fuelAfterPatch,
  fuelEntryBodySchema,
  fuelEntryKey,
  odometerAtMiles,
  type FuelFields,
} from "./fuel";
import { decodeSyncedValue } from "../sync/synced-value";
import { METRES_PER_MILE } from "../units/units";

const HOUR = 3_600_000;
const miles = (m: number) => m * METRES_PER_MILE;

describe("odometerAtMiles", () => {
  const now = 100 * HOUR;
  it("is the odometer now less the trips after the moment, a trip under way then by its share of time", () => {
    const trips = [
      { startTime: 90 * HOUR, endTime: 92 * HOUR, distance: miles(40) }, // wholly after
      { startTime: 80 * HOUR, endTime: 84 * HOUR, distance: miles(20) }, // half after 82 h
      { startTime: 70 * HOUR, endTime: 71 * HOUR, distance: miles(50) }, // before: ignored
    ];
    expect(odometerAtMiles(miles(1000), trips, 82 * HOUR, now)).toBe(950);
  });

  it("counts an open trip up to now, and is null with no odometer", () => {
    expect(
      odometerAtMiles(miles(500), [{ startTime: 98 * HOUR, endTime: null, distance: miles(10) }], 99 * HOUR, now),
    ).toBe(495);
    expect(odometerAtMiles(null, [], now, now)).toBeNull();
  });
});

describe("engineHoursAt", () => {
  const now = 100 * HOUR;
  it("is the hours now less the trips' time after the moment, an open trip up to now", () => {
    const trips = [
      { startTime: 90 * HOUR, endTime: 92 * HOUR, distance: null }, // 2 h after
      { startTime: 80 * HOUR, endTime: 84 * HOUR, distance: null }, // 2 h after 82 h
      { startTime: 99 * HOUR, endTime: null, distance: null }, // under way: 1 h so far
      { startTime: 70 * HOUR, endTime: 71 * HOUR, distance: null }, // before: ignored
    ];
    expect(engineHoursAt(1000, trips, 82 * HOUR, now)).toBe(995);
  });

  it("never goes below zero, and is null with no hours", () => {
    expect(engineHoursAt(1, [{ startTime: 0, endTime: 10 * HOUR, distance: null }], 0, now)).toBe(0);
    expect(engineHoursAt(null, [], now, now)).toBeNull();
  });
});

describe("fuel entries", () => {
  const fields: FuelFields = {
    vehicleId: "v1",
    at: Date.UTC(2026, 10, 1, 8, 30),
    volumeLitres: 45.678,
    costCents: 6123,
    fullTank: false,
    odometerMiles: 12_345.6,
    vendor: "Shell",
    photoIds: ["p1"],
  };

  it("travel compactly and come back as they were (litres to 0.01)", () => {
    const wire = encodeFuelEntry(fields);
    expect(wire).toEqual(["~v1", fields.at / 1000, 45.68, 6123, 12_345.6, { p: 1, vn: "Shell", ph: ["p1"] }]);
    expect(decodeFuelEntry("e1", wire)).toEqual({ ...fields, id: "e1", volumeLitres: 45.68 });
  });

  it("leave out what a fill-up lacks: a full tank with no cost, odometer, vendor or photo is three values", () => {
    const bare = { ...fields, fullTank: true, costCents: null, odometerMiles: null, vendor: null, photoIds: [] };
    expect(encodeFuelEntry(bare)).toEqual(["~v1", fields.at / 1000, 45.68]);
    expect(decodeFuelEntry("e1", encodeFuelEntry(bare))).toEqual({ ...bare, id: "e1", volumeLitres: 45.68 });
    const noCost = { ...bare, odometerMiles: 900.5 };
    expect(encodeFuelEntry(noCost)).toEqual(["~v1", fields.at / 1000, 45.68, null, 900.5]);
    expect(decodeFuelEntry("e1", encodeFuelEntry(noCost))).toEqual({ ...noCost, id: "e1", volumeLitres: 45.68 });
  });

  it("pack UUIDs, in the key and the vehicle, and give them back as they were", () => {
    const vehicleId = "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
    const entryId = "0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d";
    const wire = encodeFuelEntry({ ...fields, vehicleId });
    expect(wire[0]).toHaveLength(21);
    expect(fuelEntryKey(entryId)).toHaveLength("fuel/".length + 21);
    expect(decodeSyncedValue(fuelEntryKey(entryId), wire)).toEqual({
      ...fields,
      vehicleId,
      id: entryId,
      volumeLitres: 45.68,
    });
  });

  it("are patched field by field, null clearing cost, odometer and vendor", () => {
    expect(fuelAfterPatch(fields, { volumeLitres: 50, vendor: null })).toEqual({
      ...fields,
      volumeLitres: 50,
      vendor: null,
    });
    expect(fuelAfterPatch(fields, {})).toEqual(fields);
  });

  it("refuse bad bodies with the field named", () => {
    const bad = fuelEntryBodySchema.safeParse({ vehicleId: "v", at: "yesterday", volumeLitres: 0, fullTank: "yes" });
    expect(bad.success).toBe(false);
    const fieldsNamed = Object.keys(bad.error!.flatten().fieldErrors);
    expect(fieldsNamed.sort()).toEqual(["at", "fullTank", "volumeLitres"]);
  });
});
