import { describe, expect, it } from "vitest";
import { mutators } from "./mutators";
import { decodeSyncedValue } from "./synced-value";
import { encodeTelemetry, type Telemetry } from "../fleet/telemetry";
import { encodeVehicle, vehicleKey, type Vehicle } from "../fleet/vehicle";
import { vehicleTable } from "../fleet/vehicle-fields";
import { encodeVehicleEvent, type VehicleEvent } from "../fleet/vehicle-event";

const vehicle: Vehicle = {
  id: "3f0c2a9e-1d4b-4c55-9a77-0b3e8f6d2c11",
  ...vehicleTable.given({ name: "Truck 7", year: 2021, make: "Ford" }),
  driver: "Ana",
  driverId: null,
  classification: { value: "PICKUP_TRUCK" },
  status: "ACTIVE",
  beaconStatus: "ACTIVE",
  fuelTankLitres: 80,
};

describe("compact synced values (docs/decisions/0013)", () => {
  it("a vehicle round-trips through its stored form, with no id and no nulls inside", () => {
    const { id, ...fields } = vehicle;
    const wire = encodeVehicle(fields);
    const json = JSON.stringify(wire);
    expect(json).not.toContain("null");
    expect(json).not.toContain(id);
    expect(decodeSyncedValue(vehicleKey(id), JSON.parse(json))).toEqual(vehicle);
  });

  it("telemetry keeps 6 decimals of coordinates, sensible precision elsewhere, and gets its ids back from the key", () => {
    const t: Telemetry = {
      id: "v1",
      vehicleId: "v1",
      status: "moving",
      statusTimestamp: 1763900000123,
      speed: 12.345678901234,
      odometer: 120034.56789,
      fuel: 63.98765,
      latitude: 41.878113999999,
      longitude: -87.629798123456,
      heading: null,
      recordedAt: 1763900004567,
    };
    const wire = encodeTelemetry(t);
    expect(JSON.stringify(wire)).not.toMatch(/null|v1/);
    expect(decodeSyncedValue("telemetry/v1", wire)).toEqual({
      ...t,
      speed: 12.35,
      odometer: 120035,
      fuel: 64,
      latitude: 41.878114,
      longitude: -87.629798,
    });
  });

  it("an event keeps its location only when it has one, and both ids come from the key", () => {
    const open: VehicleEvent = {
      id: "0mhx2k3l0-1a2b3c4d",
      vehicleId: "v9",
      type: "TRANSIT",
      startTime: 1763900000000,
      endTime: null,
      location: null,
      distance: 1234.5678,
      averageSpeed: 8.3333333,
      fuelFrom: null,
      fuelTo: null,
    };
    const stop: VehicleEvent = {
      ...open,
      type: "STOP",
      endTime: 1763900600000,
      location: {
        latitude: 30.1,
        longitude: -97.7,
        streetNumber: "12",
        street: "Main St",
        city: "Austin",
        state: null,
        postalCode: null,
      },
      distance: null,
      averageSpeed: null,
    };
    for (const e of [open, stop]) {
      const wire = encodeVehicleEvent(e);
      expect(JSON.stringify(wire)).not.toMatch(/null|v9|0mhx2k3l0/);
      const decoded = decodeSyncedValue(`event/v9/${e.id}`, wire);
      expect(decoded).toEqual(e === open ? { ...open, distance: 1235, averageSpeed: 8.33 } : stop);
    }
  });

  it("a refuel keeps its fuel levels to a tenth of a point", () => {
    const refuel: VehicleEvent = {
      id: "0mhx2k3l0-2b3c4d5e",
      vehicleId: "v9",
      type: "REFUEL",
      startTime: 1763900000000,
      endTime: 1763900180000,
      location: null,
      distance: null,
      averageSpeed: null,
      fuelFrom: 21.34,
      fuelTo: 88.96,
    };
    const wire = encodeVehicleEvent(refuel);
    expect(wire).toEqual({ k: "REFUEL", a: 1763900000000, z: 1763900180000, fa: 21.3, fz: 89 });
    expect(decodeSyncedValue(`event/v9/${refuel.id}`, wire)).toEqual({ ...refuel, fuelFrom: 21.3, fuelTo: 89 });
  });

  it("updateVehicle merges over the stored form and leaves a cleared field out", async () => {
    const { id, ...fields } = vehicle;
    const store = new Map<string, unknown>([[vehicleKey(id), encodeVehicle(fields)]]);
    const tx = { get: async (k: string) => store.get(k), set: async (k: string, v: unknown) => void store.set(k, v) };
    await mutators.updateVehicle(tx as never, {
      id,
      name: "Truck 8",
      vin: null,
      year: null,
      make: "Ram",
      model: "1500",
    });
    const stored = store.get(vehicleKey(id));
    expect(stored).toEqual({
      n: "Truck 8",
      mk: "Ram",
      md: "1500",
      d: "Ana",
      c: "PICKUP_TRUCK",
      s: "ACTIVE",
      b: "ACTIVE",
      // Not named by the update (a tab of an older build names no tank): kept.
      ft: 80,
    });
    expect(decodeSyncedValue(vehicleKey(id), stored)).toEqual({
      ...vehicle,
      name: "Truck 8",
      year: null,
      make: "Ram",
      model: "1500",
    });
    await mutators.updateVehicle(tx as never, {
      id,
      name: "Truck 8",
      vin: null,
      year: null,
      make: null,
      model: null,
      fuelTankLitres: null,
    });
    expect(store.get(vehicleKey(id))).not.toHaveProperty("ft");
  });
});
