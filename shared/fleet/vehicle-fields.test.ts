import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import type { FieldSpec } from "../fields/field-table";
import { mutators as m, updateVehicleArgs, vehiclePatchSchema, vehicleSettingsSchema } from "../sync/mutators";
import { decodeVehicle, encodeVehicle, vehicleKey, type Vehicle, type VehicleWire } from "./vehicle";
import { VEHICLE_FIELD_TABLE, vehicleTableFormDefault, vehicleTable } from "./vehicle-fields";

/**
 * The vehicle table (docs/decisions/0105) reaches every place its fields are listed: the
 * updateVehicle mutation's arguments, the REST patch and the Settings form's schema check each
 * field; the mutation changes, keeps or (unless it is required) clears it; the synced value carries
 * it under its own key beside the written-out fields and reads the values a tab synced before the
 * table; the Settings form lists its inputs in the table's order.
 */
const table: Record<string, FieldSpec> = VEHICLE_FIELD_TABLE;
const keys = vehicleTable.keys;
const examples = Object.fromEntries(keys.map((k) => [k, table[k]!.example]));
const required = keys.filter((k) => table[k]!.required);
const optional = keys.filter((k) => !table[k]!.required);
const nulls = Object.fromEntries(optional.map((k) => [k, null]));
/** What is written out beside the table, as a vehicle synced before the table had it. */
const outside = {
  driver: "Ana",
  driverId: "d1",
  classification: { value: "PICKUP_TRUCK" },
  status: "ACTIVE",
  beaconStatus: "PENDING",
  fuelTankLitres: 80,
};
const OUTSIDE_WIRE = ["d", "di", "c", "s", "b", "ft"];

/** Replicache's transaction over a Map: what the mutators read and write. */
function store(vehicle: Omit<Vehicle, "id">) {
  const { map, tx } = memoryTransaction({ [vehicleKey("v")]: encodeVehicle(vehicle) });
  return { tx, read: () => decodeVehicle("v", map.get(vehicleKey("v")) as VehicleWire) };
}

describe("the vehicle table", () => {
  it("is checked by the mutation's arguments, the REST patch and the Settings form, each keeping its value", () => {
    expect(updateVehicleArgs.parse({ id: "v", ...examples })).toEqual({ id: "v", ...examples });
    expect(vehiclePatchSchema.parse(examples)).toEqual(examples);
    expect(vehicleSettingsSchema.parse(examples)).toEqual(examples);
    for (const k of keys) expect(vehiclePatchSchema.safeParse({ [k]: {} }).success, k).toBe(false);
    for (const k of required) expect(vehiclePatchSchema.safeParse({ [k]: null }).success, k).toBe(false);
    for (const k of required) expect(vehicleSettingsSchema.safeParse({ [k]: undefined }).success, k).toBe(false);
    // the Settings form: an input left empty (undefined from conform) is none
    const onlyRequired = Object.fromEntries(required.map((k) => [k, examples[k]]));
    expect(vehicleSettingsSchema.parse(onlyRequired)).toEqual(onlyRequired);
    expect(vehiclePatchSchema.parse({})).toEqual({});
    expect(vehiclePatchSchema.parse(nulls)).toEqual(nulls);
  });

  it("keeps the messages people read", () => {
    const issues = (input: object) =>
      vehiclePatchSchema.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues({ name: " " })).toEqual(["name: Required"]);
    expect(issues({ name: "x".repeat(81) })).toEqual(["name: Use at most 80 characters"]);
    expect(issues({ vin: "NOT-A-VIN" })).toEqual(["vin: A VIN is 17 letters and digits (no I, O or Q)"]);
    expect(issues({ year: 1800 })).toEqual(["year: Enter a year between 1900 and 2100"]);
    expect(issues({ year: 2019.5 })).toEqual(["year: Enter a year"]);
    expect(issues({ make: "x".repeat(51) })).toEqual(["make: Use at most 50 characters"]);
    expect(vehiclePatchSchema.parse({ vin: " 1hgcm82633a004352 ", make: "" })).toEqual({
      vin: "1HGCM82633A004352",
      make: null,
    });
  });

  it("is changed, kept and cleared by the updateVehicle mutation, the written-out fields untouched", async () => {
    const { tx, read } = store({ ...examples, ...outside } as Omit<Vehicle, "id">);
    const first = required[0]!;
    await m.updateVehicle(tx, { id: "v", ...examples, [first]: `${examples[first]} 2` } as never);
    expect(read()).toEqual({ id: "v", ...examples, [first]: `${examples[first]} 2`, ...outside });
    await m.updateVehicle(tx, { id: "v", ...examples, ...nulls } as never);
    expect(read()).toEqual({ id: "v", ...examples, ...nulls, ...outside });
  });

  it("travels in the synced value under its own short key beside the written-out ones, left out when empty", () => {
    const wires = keys.map((k) => table[k]!.wire);
    expect(new Set([...wires, ...OUTSIDE_WIRE]).size).toBe(wires.length + OUTSIDE_WIRE.length);
    const plain = encodeVehicle({ ...examples, ...nulls, ...outside } as Omit<Vehicle, "id">);
    expect(Object.keys(plain).sort()).toEqual([...required.map((k) => table[k]!.wire), ...OUTSIDE_WIRE].sort());
    const full = encodeVehicle({ ...examples, ...outside } as Omit<Vehicle, "id">);
    expect(Object.fromEntries(wires.map((w) => [w, full[w as keyof VehicleWire]]))).toEqual(
      Object.fromEntries(keys.map((k) => [table[k]!.wire, examples[k]])),
    );
  });

  it("reads and writes the synced value as a tab from before the table does (same keys)", () => {
    const yesterdays = {
      ...{ n: "Alpha Truck", s: "IN_SHOP", b: "ACTIVE", y: 2019, mk: "Ford", md: "F-150", vin: "1FTFW1ET5DFC10312" },
      ...{ d: "Ana", di: "d1", c: "PICKUP_TRUCK", ft: 98 },
    } satisfies VehicleWire;
    const { id: _id, ...decoded } = decodeVehicle("v", yesterdays);
    // a field added since is empty, the tab's values kept as they were
    expect(decoded).toEqual({
      ...nulls,
      ...{ name: "Alpha Truck", year: 2019, make: "Ford", model: "F-150", vin: "1FTFW1ET5DFC10312" },
      ...{ driver: "Ana", driverId: "d1", classification: { value: "PICKUP_TRUCK" } },
      ...{ status: "IN_SHOP", beaconStatus: "ACTIVE", fuelTankLitres: 98 },
    });
    expect(encodeVehicle(decoded)).toEqual(yesterdays);
    const bare = { n: "Vehicle 1", s: "ACTIVE", b: "PENDING" } satisfies VehicleWire;
    expect(encodeVehicle(decodeVehicle("v", bare))).toEqual(bare);
  });

  it("lists the Settings form's inputs in the table's order, with the labels people read", () => {
    expect(vehicleTable.formFields.map((f) => f.name)).toEqual(keys.filter((k) => table[k]!.form));
    const labels = Object.fromEntries(vehicleTable.formFields.map((f) => [f.name, f.label]));
    expect(labels).toMatchObject({ name: "Vehicle Name", vin: "VIN", year: "Year", make: "Make", model: "Model" });
    expect(vehicleTable.formFields.find((f) => f.name === "year")?.type).toBe("number");
    expect(keys.map(vehicleTableFormDefault)).toEqual(keys.map((k) => (table[k]!.kind === "number" ? undefined : "")));
  });
});
