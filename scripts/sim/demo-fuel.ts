import type { Vehicle } from "../../shared/fleet/vehicle";
import type { Api } from "./api";
import { METRES_PER_MILE } from "../../shared/units/units";

const DAY_MS = 86_400_000;
const LITRES_PER_GALLON = 3.785411784;

/** Tank (gal), usual mpg and miles a day of the demo vehicles that get a fuel history. */
export const PROFILES = [
  { tankGallons: 26, mpg: 17, milesPerDay: 95, vendor: "Shell, Lake St" },
  { tankGallons: 35, mpg: 19, milesPerDay: 80, vendor: "Costco Gas" },
  { tankGallons: 40, mpg: 11, milesPerDay: 100, vendor: "Pilot Travel Center" },
];

/**
 * The demo's fuel log (issue 42), through the public REST API: the first three vehicles get their
 * tank and three weeks of full-tank fill-ups with cost and odometer (one partial fill carried into
 * the next full one), so the Fuel page and the Fuel tab's economy have figures at once; one
 * odometer typed lower than the fill-up before shows a fill-up to check. Seeded once: a workspace
 * with any fill-up is left as it is.
 */
export async function seedDemoFuel(
  api: Api,
  vehicles: Vehicle[],
  log: (line: string) => void,
  /** where each vehicle's odometer stands when the simulator starts it (metres) */
  startOdometer: (vehicleId: string) => number | undefined,
) {
  const existing = await api.call<{ entries: unknown[] }>("GET", "fuel-entries");
  if (existing.entries.length > 0) return;
  let count = 0;
  for (const [i, p] of PROFILES.entries()) {
    const vehicle = vehicles[i];
    if (!vehicle) break;
    await api.call("PATCH", `vehicles/${vehicle.id}`, { fuelTankLitres: round(p.tankGallons * LITRES_PER_GALLON) });
    // The history ends a short drive below where the simulator starts the vehicle, so the fill-ups
    // the demo logs as it drives (scripts/sim/demo-fill-ups.ts) carry on from it, not backwards.
    const start = startOdometer(vehicle.id);
    const history = 6 * 4 * p.milesPerDay + 40;
    let odometer =
      start === undefined ? 30_000 + i * 12_000 : Math.max(0, Math.round(start / METRES_PER_MILE) - history);
    // Fuel burnt since the last fill-up: a partial fill pays half of it, a full one the rest.
    let owed = 0;
    for (let daysAgo = 21; daysAgo > 0; daysAgo -= 4) {
      const miles = p.milesPerDay * 4;
      odometer += miles;
      owed += miles / p.mpg;
      const partial = i === 1 && daysAgo === 13;
      const gallons = partial ? owed / 2 : owed;
      owed -= gallons;
      // A typo on one fill-up: its odometer one digit short, below the fill-up before.
      const typed = i === 2 && daysAgo === 9 ? Math.floor(odometer / 10) : odometer;
      await api.call("POST", "fuel-entries", {
        vehicleId: vehicle.id,
        at: new Date(Date.now() - daysAgo * DAY_MS + 8 * 3_600_000).toISOString(),
        volumeLitres: round(gallons * LITRES_PER_GALLON),
        costCents: Math.round(gallons * 349),
        fullTank: !partial,
        odometerMiles: typed,
        vendor: p.vendor,
      });
      count++;
    }
  }
  log(`Seeded ${count} fill-ups on 3 vehicles (one partial, one odometer to check)`);
}

const round = (v: number) => Math.round(v * 1000) / 1000;
