import { COORDINATE_DECIMALS, round, roundOrNone, setIfPresent } from "../sync/wire";

/**
 * Timeline events, keyed `event/{vehicleId}/{eventId}` so one vehicle's events are one prefix
 * scan. Event ids sort by start time, so a scan returns them in chronological order. The server
 * keeps only each vehicle's latest events in the synced set (older ones are sent as `del`).
 */
export const EVENT_PREFIX = "event/";
export const vehicleEventKey = (vehicleId: string, eventId: string) => `${EVENT_PREFIX}${vehicleId}/${eventId}`;
/**
 * How many of a vehicle's latest events the synced store keeps: the 3 the timeline shows (docs/product.md
 * section 9). Older ones stay in D1 (soft-deleted from the synced set), not in every browser.
 */
export const SYNCED_EVENTS_PER_VEHICLE = 3;

/** What the trip detector makes of the positions (domain/fold/motion.ts): they tile a vehicle's time. */
export type VehicleEventType = "TRANSIT" | "STOP" | "TOW";
/**
 * What the fuel watch sees in the beacon's fuel level (domain/fuel/level-watch.ts): a refuel or a
 * fuel drop while the vehicle stood, inside one of its stops (docs/decisions/0050).
 */
export type FuelEventType = "REFUEL" | "FUEL_DROP";
export const FUEL_EVENT_TYPES: readonly FuelEventType[] = ["REFUEL", "FUEL_DROP"];
/** Every kind of timeline event. */
export type TimelineEventType = VehicleEventType | FuelEventType;
export const isFuelEvent = (type: TimelineEventType): type is FuelEventType =>
  type === "REFUEL" || type === "FUEL_DROP";
/** A trip: what moved the vehicle (its distance counts on the odometer). */
export const isTrip = (type: TimelineEventType) => type === "TRANSIT" || type === "TOW";

/**
 * The litres a refuel added or a drop took (always positive), from the fuel levels in percent and
 * the vehicle's tank; null when the tank is not set (the levels alone say nothing in litres).
 */
export function fuelChangeLitres(
  e: { fuelFrom: number | null; fuelTo: number | null },
  tankLitres: number | null | undefined,
): number | null {
  if (e.fuelFrom === null || e.fuelTo === null || !tankLitres) return null;
  return Math.round((Math.abs(e.fuelTo - e.fuelFrom) / 100) * tankLitres * 10) / 10;
}

/** A stop's address, as reverse geocoding found it (each part null when unknown). */
export interface StreetAddress {
  streetNumber: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
}

/** A timeline event as the client store holds it (decodeVehicleEvent builds it; nothing parses it with zod). */
export type VehicleEvent = {
  id: string;
  vehicleId: string;
  type: TimelineEventType;
  startTime: number;
  /** null while the event is still going on */
  endTime: number | null;
  location: ({ latitude: number; longitude: number } & StreetAddress) | null;
  /** TRANSIT/TOW: metres travelled */
  distance: number | null;
  /** TRANSIT/TOW: mean speed in m/s */
  averageSpeed: number | null;
  /** REFUEL/FUEL_DROP: the fuel level before and after, percent of the tank */
  fuelFrom: number | null;
  fuelTo: number | null;
};

/**
 * An event as it is synced and stored under `event/{vehicleId}/{eventId}` (docs/decisions/0013):
 * no ids (both are in the key), nulls left out, coordinates to 6 decimals, distance to the metre,
 * speed to 0.01 m/s. The screens read `VehicleEvent`; `decodeVehicleEvent` is the one way there.
 */
export type VehicleEventWire = {
  /** type */
  k: TimelineEventType;
  /** startTime, ms */
  a: number;
  /** endTime, ms; absent while the event goes on */
  z?: number;
  /** location: latitude and longitude (both or neither), then the address parts */
  la?: number;
  lo?: number;
  /** streetNumber */
  sn?: string;
  /** street */
  sr?: string;
  /** city */
  ci?: string;
  /** state */
  st?: string;
  /** postalCode */
  pc?: string;
  /** distance, m */
  d?: number;
  /** averageSpeed, m/s */
  v?: number;
  /** fuelFrom, fuelTo: percent, to 0.1 */
  fa?: number;
  fz?: number;
};

export function encodeVehicleEvent(e: Omit<VehicleEvent, "id" | "vehicleId">): VehicleEventWire {
  const w: VehicleEventWire = { k: e.type, a: Math.round(e.startTime) };
  setIfPresent(w, "z", roundOrNone(e.endTime, 0));
  if (e.location) {
    w.la = round(e.location.latitude, COORDINATE_DECIMALS);
    w.lo = round(e.location.longitude, COORDINATE_DECIMALS);
    setIfPresent(w, "sn", e.location.streetNumber);
    setIfPresent(w, "sr", e.location.street);
    setIfPresent(w, "ci", e.location.city);
    setIfPresent(w, "st", e.location.state);
    setIfPresent(w, "pc", e.location.postalCode);
  }
  setIfPresent(w, "d", roundOrNone(e.distance, 0));
  setIfPresent(w, "v", roundOrNone(e.averageSpeed, 2));
  setIfPresent(w, "fa", roundOrNone(e.fuelFrom, 1));
  setIfPresent(w, "fz", roundOrNone(e.fuelTo, 1));
  return w;
}

export function decodeVehicleEvent(vehicleId: string, eventId: string, w: VehicleEventWire): VehicleEvent {
  return {
    id: eventId,
    vehicleId,
    type: w.k,
    startTime: w.a,
    endTime: w.z ?? null,
    location:
      w.la === undefined || w.lo === undefined
        ? null
        : {
            latitude: w.la,
            longitude: w.lo,
            streetNumber: w.sn ?? null,
            street: w.sr ?? null,
            city: w.ci ?? null,
            state: w.st ?? null,
            postalCode: w.pc ?? null,
          },
    distance: w.d ?? null,
    averageSpeed: w.v ?? null,
    fuelFrom: w.fa ?? null,
    fuelTo: w.fz ?? null,
  };
}
