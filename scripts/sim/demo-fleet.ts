import type { UpdateVehicleArgs } from "../../shared/sync/mutators";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { vinCheckDigit } from "../../shared/fleet/vin";

/**
 * The demo fleet of `npm start`: a dozen work vehicles with real-looking details. VINs follow the
 * standard structure (the maker's WMI, a letter in position 7 and the model-year code in position
 * 10) and carry a valid check digit, so the VIN decoder in the settings agrees with the year and make.
 */
export const DEMO_ACCOUNT = { email: "demo@fleet.example", password: "fleet-demo-2026", workspace: "Demo Fleet" };

export interface VehicleProfile {
  name: string;
  year: number;
  make: string;
  model: string;
  vin: string;
  driver: string;
  classification: string;
}

/** `?` marks the check digit (position 9). */
const withCheckDigit = (template: string) => template.replace("?", vinCheckDigit(template.replace("?", "0"))!);

const profile = (
  name: string,
  year: number,
  make: string,
  model: string,
  vin: string,
  driver: string,
  classification: string,
): VehicleProfile => ({
  name,
  year,
  make,
  model,
  vin: withCheckDigit(vin),
  driver,
  classification,
});

export const DEMO_FLEET: VehicleProfile[] = [
  profile("Crew Pickup 1", 2023, "Ford", "F-150", "1FTFW1E5?PFA23817", "Maria Gonzalez", "PICKUP_TRUCK"),
  profile("Crew Pickup 2", 2022, "Chevrolet", "Silverado 1500", "1GCUYDED?NZ148392", "James Carter", "PICKUP_TRUCK"),
  profile("Cargo Van 1", 2021, "Ram", "ProMaster 2500", "3C6LRVDG?ME512846", "Priya Patel", "CARGO_VAN"),
  profile("Cargo Van 2", 2023, "Ford", "Transit-250", "1FTBR1C8?PKA63027", "Daniel Kim", "CARGO_VAN"),
  profile("Sprinter 1", 2020, "Mercedes-Benz", "Sprinter 2500", "W1V4EBFD?LP274615", "Aisha Johnson", "CARGO_VAN"),
  profile("Box Truck 1", 2022, "International", "MV607", "1HTEUMML?NH592043", "Robert Miller", "BOX_TRUCK"),
  profile("Box Truck 2", 2021, "Freightliner", "M2 106", "1FVACWFC?MHM40215", "Emily Chen", "BOX_TRUCK"),
  profile("Field SUV 1", 2023, "Toyota", "RAV4", "JTMRWRFV?PD081264", "Marcus Brown", "SUV"),
  profile("Field SUV 2", 2022, "Ford", "Explorer", "1FM5K8D8?NGA43917", "Sofia Rossi", "SUV"),
  profile("Sales Sedan 1", 2021, "Toyota", "Camry", "4T1G11AK?MU574203", "Tyrone Washington", "SEDAN"),
  profile("Sales Sedan 2", 2022, "Honda", "Accord", "1HGCV1F3?NA106387", "Hannah Schultz", "SEDAN"),
  profile("Sales Sedan 3", 2023, "Tesla", "Model 3", "5YJ3E1EA?PF512374", "Luis Hernandez", "SEDAN"),
];

export interface ProfileChanges {
  /** sync push: name, VIN, year, make, model */
  details: UpdateVehicleArgs[];
  /** dev endpoint: driver and classification, which no mutation sets */
  extras: { id: string; driver: string; classification: string }[];
}

/**
 * What to change so the given vehicles carry the demo profiles: a vehicle that already has a
 * profile's VIN keeps that profile, the others take the unused ones in order. On an already
 * seeded fleet nothing changes, so seeding again is a no-op.
 */
export function planProfiles(vehicles: Vehicle[], profiles: VehicleProfile[] = DEMO_FLEET): ProfileChanges {
  const byVin = new Map(profiles.map((p) => [p.vin, p]));
  const taken = new Set<string>();
  const assigned = new Map<string, VehicleProfile>();
  for (const v of vehicles) {
    const p = v.vin ? byVin.get(v.vin) : undefined;
    if (p && !taken.has(p.vin)) {
      assigned.set(v.id, p);
      taken.add(p.vin);
    }
  }
  const free = profiles.filter((p) => !taken.has(p.vin));
  for (const v of vehicles) {
    if (assigned.has(v.id)) continue;
    const p = free.shift();
    if (!p) break;
    assigned.set(v.id, p);
  }
  const changes: ProfileChanges = { details: [], extras: [] };
  for (const v of vehicles) {
    const p = assigned.get(v.id);
    if (!p) continue;
    if (v.name !== p.name || v.vin !== p.vin || v.year !== p.year || v.make !== p.make || v.model !== p.model) {
      changes.details.push({ id: v.id, name: p.name, vin: p.vin, year: p.year, make: p.make, model: p.model });
    }
    if (v.driver !== p.driver || v.classification?.value !== p.classification) {
      changes.extras.push({ id: v.id, driver: p.driver, classification: p.classification });
    }
  }
  return changes;
}
