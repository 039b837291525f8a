import { COORDINATE_DECIMALS, round, roundOrNone, setIfPresent } from "./wire";

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

export type VehicleEventType = "TRANSIT" | "STOP" | "TOW";

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
  type: VehicleEventType;
  startTime: number;
  /** null while the event is still going on */
  endTime: number | null;
  location: ({ latitude: number; longitude: number } & StreetAddress) | null;
  /** TRANSIT/TOW: metres travelled */
  distance: number | null;
  /** TRANSIT/TOW: mean speed in m/s */
  averageSpeed: number | null;
};

/**
 * An event as it is synced and stored under `event/{vehicleId}/{eventId}` (docs/decisions/0013):
 * no ids (both are in the key), nulls left out, coordinates to 6 decimals, distance to the metre,
 * speed to 0.01 m/s. The screens read `VehicleEvent`; `decodeVehicleEvent` is the one way there.
 */
export type VehicleEventWire = {
  /** type */
  k: VehicleEventType;
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
  };
}
