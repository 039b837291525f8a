import { COORDINATE_DECIMALS, round, roundOrNone, setIfPresent } from "../sync/wire";

/**
 * Latest telemetry of a vehicle, one record per vehicle: `telemetry/{vehicleId}` (docs/product.md section
 * 3). The key is the vehicleId index: a vehicle's record is one point lookup in Replicache's
 * key-ordered tree, so the value does not repeat the id for a secondary index
 * (docs/decisions/0013). Stored in SI units (m/s, metres); the UI converts to mph and miles.
 */
export const TELEMETRY_PREFIX = "telemetry/";
export const telemetryKey = (vehicleId: string) => `${TELEMETRY_PREFIX}${vehicleId}`;

/** off = ignition off (shown as Parked); idle = ignition on, not moving; towing = moving with ignition off. */
export type TelemetryStatus = "off" | "idle" | "moving" | "towing";

/** Telemetry as the client store holds it (decodeTelemetry builds it; nothing parses it with zod). */
export type Telemetry = {
  id: string;
  vehicleId: string;
  status: TelemetryStatus;
  /** When the current status began (ms since epoch). */
  statusTimestamp: number;
  /** m/s */
  speed: number;
  /** metres, when the beacon reports it */
  odometer: number | null;
  /** percent 0-100, when the beacon reports it */
  fuel: number | null;
  latitude: number;
  longitude: number;
  /** degrees clockwise from north */
  heading: number | null;
  /** Device time of the report (ms since epoch). */
  recordedAt: number;
};

/**
 * Telemetry as it is synced and stored under `telemetry/{vehicleId}` (docs/decisions/0013): no ids
 * (the key has the vehicle's; the row's own id is never shown), nulls left out, coordinates to 6
 * decimals, speed to 0.01 m/s, odometer to the metre, fuel to 0.1 %, heading to the degree.
 * The screens read `Telemetry`; `decodeTelemetry` is the one way from this form to that one.
 */
export type TelemetryWire = {
  /** status */
  s: TelemetryStatus;
  /** statusTimestamp, ms */
  st: number;
  /** speed, m/s */
  v: number;
  /** odometer, m */
  o?: number;
  /** fuel, % */
  f?: number;
  /** latitude */
  la: number;
  /** longitude */
  lo: number;
  /** heading, degrees */
  h?: number;
  /** recordedAt, ms */
  t: number;
};

export function encodeTelemetry(t: Omit<Telemetry, "id" | "vehicleId">): TelemetryWire {
  const w: TelemetryWire = {
    s: t.status,
    st: Math.round(t.statusTimestamp),
    v: round(t.speed, 2),
    la: round(t.latitude, COORDINATE_DECIMALS),
    lo: round(t.longitude, COORDINATE_DECIMALS),
    t: Math.round(t.recordedAt),
  };
  setIfPresent(w, "o", roundOrNone(t.odometer, 0));
  setIfPresent(w, "f", roundOrNone(t.fuel, 1));
  setIfPresent(w, "h", roundOrNone(t.heading, 0));
  return w;
}

/** The record id is the vehicle's: there is one telemetry record per vehicle. */
export function decodeTelemetry(vehicleId: string, w: TelemetryWire): Telemetry {
  return {
    id: vehicleId,
    vehicleId,
    status: w.s,
    statusTimestamp: w.st,
    speed: w.v,
    odometer: w.o ?? null,
    fuel: w.f ?? null,
    latitude: w.la,
    longitude: w.lo,
    heading: w.h ?? null,
    recordedAt: w.t,
  };
}
