import type { FuelEntry } from "../../shared/costs/fuel";
import { LITRES_PER_US_GALLON, METRES_PER_MILE } from "../../shared/units/units";
import type { Vehicle } from "../../shared/fleet/vehicle";
import type { Api } from "./api";
import { PROFILES } from "./demo-fuel";
import { receiptPng } from "./receipt-image";
import type { FillUpMade } from "./refuel-stops";

/**
 * The demo's drivers log their fill-ups (issue 42, docs/decisions/0060): when a simulated vehicle
 * drives off from the pump, the demo photographs a receipt and logs the fill-up through the same
 * API a member's phone uses (`POST /api/photos`, then `POST /api/fuel-entries` with the photo), so
 * the Fuel page fills with receipts and the refuels the tracker saw have their fill-up (no check).
 *
 * The simulator's tank empties in 150 km so that refuels happen within minutes; the litres logged
 * are what the vehicle's usual economy burns over the miles since its last fill-up instead, so its
 * economy on the Fuel page stays its own (the first three demo vehicles' profiles, 18 mpg else).
 */
const USUAL_MPG = 18;
const CENTS_PER_GALLON = 349;
const VENDORS = ["Shell", "BP", "Chevron", "Speedway", "Marathon"];
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export function demoFillUps(api: Api, vehicles: Vehicle[], log: (line: string) => void) {
  const byId = new Map(vehicles.map((v, i) => [v.id, { vehicle: v, mpg: PROFILES[i]?.mpg ?? USUAL_MPG }]));
  return (vehicleId: string, made: FillUpMade) => {
    const known = byId.get(vehicleId);
    if (!known) return;
    logFillUp(api, known.vehicle, known.mpg, made).then(
      (gallons) => log(`${known.vehicle.name} filled up: ${gallons} gal logged with its receipt`),
      (e: unknown) =>
        log(`${known.vehicle.name}'s fill-up was not logged: ${e instanceof Error ? e.message : String(e)}`),
    );
  };
}

/** The litres the pump showed: the miles since the last fill-up at the usual economy, or the share of the tank added. */
export function litresOf(made: FillUpMade, mpg: number, lastOdometerMiles: number | null, tankLitres: number) {
  const miles = made.odometer / METRES_PER_MILE;
  const byDistance =
    lastOdometerMiles !== null && miles > lastOdometerMiles
      ? ((miles - lastOdometerMiles) / mpg) * LITRES_PER_US_GALLON
      : null;
  const byTank = (Math.max(0, made.percentAdded) / 100) * tankLitres;
  // Never more than the tank holds (that is a reading to check, which a real fill-up is not).
  return round(Math.max(1, Math.min(byDistance ?? byTank, tankLitres * 0.95)), 2);
}

async function logFillUp(api: Api, vehicle: Vehicle, mpg: number, made: FillUpMade) {
  const { entries } = await api.call<{ entries: FuelEntry[] }>("GET", `fuel-entries?vehicleId=${vehicle.id}`);
  const last = entries.find((e) => e.odometerMiles !== null)?.odometerMiles ?? null;
  const tank = vehicle.fuelTankLitres ?? 80;
  const volumeLitres = litresOf(made, mpg, last, tank);
  const gallons = round(volumeLitres / LITRES_PER_US_GALLON, 2);
  const costCents = Math.round(gallons * CENTS_PER_GALLON);
  const odometerMiles = round(made.odometer / METRES_PER_MILE, 1);
  const photo = await api.upload<{ id: string }>(
    "photos",
    receiptPng([volumeLitres, costCents, odometerMiles]),
    "image/png",
  );
  await api.call("POST", "fuel-entries", {
    vehicleId: vehicle.id,
    at: new Date(made.at).toISOString(),
    volumeLitres,
    costCents,
    fullTank: true,
    odometerMiles,
    vendor: VENDORS[Math.floor(made.at / 1000) % VENDORS.length],
    photoIds: [photo.id],
  });
  return gallons;
}
