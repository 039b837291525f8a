import { describe, expect, it } from "vitest";
import { decodeVehicle, type Vehicle, type VehicleWire } from "../../shared/fleet/vehicle";
import { filterVehicles, fleetKnown, matchesVehicle } from "./filter";

/** A vehicle as the store holds it, from the synced form's fields (n name, mk make, md model, d driver). */
const vehicle = (id: string, fields: Partial<VehicleWire>): Vehicle =>
  decodeVehicle(id, { n: `Vehicle ${id}`, s: "ACTIVE", b: "ACTIVE", ...fields });

describe("the vehicle filter (map panel and Vehicles page)", () => {
  const fleet = [
    vehicle("1", { n: "Van 1", mk: "Ford", md: "Transit", d: "Ana Díaz" }),
    vehicle("2", { n: "Truck 7", vin: "1FTFW1E50PFA12345", mk: "RAM" }),
    vehicle("3", { n: "Pickup", md: "F-150" }),
  ];
  const names = (query: string) => filterVehicles(fleet, query).map((v) => v.name);

  it("matches name, VIN, make, model or driver, ignoring case and surrounding spaces", () => {
    expect(names("van")).toEqual(["Van 1"]);
    expect(names("pfa123")).toEqual(["Truck 7"]);
    expect(names("  FORD ")).toEqual(["Van 1"]);
    expect(names("f-150")).toEqual(["Pickup"]);
    expect(names("ana")).toEqual(["Van 1"]);
    expect(names("t")).toEqual(["Van 1", "Truck 7"]);
    expect(names("bus")).toEqual([]);
  });

  it("shows every vehicle, in order, for an empty query", () => {
    expect(filterVehicles(fleet, "   ")).toBe(fleet);
    expect(matchesVehicle(fleet[2]!, "")).toBe(true);
  });

  it("knows the fleet once local data is read and it has vehicles or the server answered", () => {
    expect(fleetKnown({ hydrated: false, pulled: true }, 3)).toBe(false);
    expect(fleetKnown({ hydrated: true, pulled: false }, 0)).toBe(false);
    expect(fleetKnown({ hydrated: true, pulled: false }, 3)).toBe(true);
    expect(fleetKnown({ hydrated: true, pulled: true }, 0)).toBe(true);
  });
});
