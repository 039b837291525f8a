import { describe, expect, it } from "vitest";
import { updateVehicleArgs } from "../../shared/sync/mutators";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { vehicleTable } from "../../shared/fleet/vehicle-fields";
import { decodeVin } from "../../shared/fleet/vin";
import { DEMO_FLEET, planProfiles } from "./demo-fleet";

const fresh = (i: number): Vehicle => ({
  id: `v${i}`,
  ...vehicleTable.given({ name: `Vehicle ${i + 1}` }),
  driver: null,
  driverId: null,
  classification: null,
  status: "ACTIVE",
  beaconStatus: "PENDING",
  fuelTankLitres: null,
});

/** Applies planned changes the way the server would. */
function apply(vehicles: Vehicle[], plan: ReturnType<typeof planProfiles>): Vehicle[] {
  return vehicles.map((v) => {
    const d = plan.details.find((x) => x.id === v.id);
    const e = plan.extras.find((x) => x.id === v.id);
    return {
      ...v,
      ...(d ? updateVehicleArgs.parse(d) : {}),
      ...(e ? { driver: e.driver, classification: { value: e.classification } } : {}),
    };
  });
}

describe("the demo fleet", () => {
  it("has a dozen distinct vehicles whose VINs decode to their year and make", () => {
    expect(DEMO_FLEET).toHaveLength(12);
    expect(new Set(DEMO_FLEET.map((p) => p.vin)).size).toBe(12);
    expect(new Set(DEMO_FLEET.map((p) => p.classification))).toEqual(
      new Set(["PICKUP_TRUCK", "SUV", "BOX_TRUCK", "CARGO_VAN", "SEDAN"]),
    );
    for (const p of DEMO_FLEET) {
      expect(decodeVin(p.vin), p.vin).toEqual({ year: p.year, make: p.make, checkDigitValid: true });
      // Everything the sync mutation accepts.
      expect(updateVehicleArgs.safeParse({ id: "x", ...p }).success).toBe(true);
    }
  });

  it("profiles fresh vehicles once; seeding again changes nothing", () => {
    const vehicles = Array.from({ length: 12 }, (_, i) => fresh(i));
    const first = planProfiles(vehicles);
    expect(first.details).toHaveLength(12);
    expect(first.extras).toHaveLength(12);
    const seeded = apply(vehicles, first);
    expect(planProfiles(seeded)).toEqual({ details: [], extras: [] });
    expect(planProfiles([...seeded].reverse())).toEqual({ details: [], extras: [] });
  });

  it("keeps the profiles already given and fills in only the new vehicles", () => {
    const seeded = apply(
      Array.from({ length: 10 }, (_, i) => fresh(i)),
      planProfiles(Array.from({ length: 10 }, (_, i) => fresh(i))),
    );
    const plan = planProfiles([...seeded, fresh(10), fresh(11)]);
    expect(plan.details.map((d) => d.id)).toEqual(["v10", "v11"]);
    expect(plan.details.map((d) => d.name)).toEqual([DEMO_FLEET[10]!.name, DEMO_FLEET[11]!.name]);
  });
});
