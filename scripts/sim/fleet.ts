import { cities } from "./routes";
import { OSMAND_FORMS, type OsmandForm } from "./osmand-client";
import { seededRandom, seedOf, type Random } from "./random";
import { createVehicle, REFUEL_BELOW, type Resume, type SimVehicle } from "./vehicle";

/**
 * Spreading a workspace's beacons over the cities and routes, and over the three ways a tracker
 * can report, deterministically: the same beacon always drives the same route with the same
 * kind of device, in every run.
 */
export interface SimBeacon {
  id: string;
  vehicleId: string;
}

export interface Assignment {
  beacon: SimBeacon;
  city: string;
  route: string;
  form: OsmandForm;
  random: Random;
  vehicle: SimVehicle;
}

export function assignFleet(
  beacons: SimBeacon[],
  now: number,
  opts: { seed?: number; resume?: Map<string, Resume>; lowOnFuel?: number } = {},
): Assignment[] {
  // Sorted by device id so the assignment does not depend on the order the API lists them in.
  return [...beacons]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((beacon, i) => {
      const city = cities[i % cities.length]!;
      const route = city.routes[Math.floor(i / cities.length) % city.routes.length]!;
      const random = seededRandom(seedOf(beacon.id) ^ (opts.seed ?? 0));
      return {
        beacon,
        city: city.name,
        route: route.name,
        form: OSMAND_FORMS[i % OSMAND_FORMS.length]!,
        random,
        vehicle: lowOnFuel(
          createVehicle(beacon.id, route.line, random, now, opts.resume?.get(beacon.vehicleId)),
          // The first `lowOnFuel` of those starting afresh (never reported) stop at the pump within minutes.
          !opts.resume?.has(beacon.vehicleId) && i >= 1 && i <= (opts.lowOnFuel ?? 0),
        ),
      };
    });
}

/** Just above the refuel mark: a kilometre or two of driving, then the next stop is at the pump. */
const lowOnFuel = (v: SimVehicle, low: boolean): SimVehicle => (low ? { ...v, fuel: REFUEL_BELOW + 1 } : v);
