import { z } from "zod";
import { isoInstant } from "../units/instant";
import { photoIdsSchema } from "../maintenance/photos";
import { KM_PER_MILE, METRES_PER_MILE, gallonsToLitres, litresToGallons, type WorkspaceUnits } from "../units/units";
import { packId, unpackId } from "../sync/wire";
import { type FuelTableValues, type FuelTableWire, fuelTable } from "./fuel-fields";

/**
 * The fuel log (issue 42, DESIGN.md "Fuel, costs and renewals"): one schema for the REST API, the
 * sync mutators and the Fuel tab's form, the compact synced value, and the rule that fills in an
 * entry's odometer from the vehicle's GPS odometer. Volumes are litres, money integer cents. The
 * plain fields (the vendor) are one table, shared/costs/fuel-fields.ts (docs/decisions/0103); the
 * others, each with a rule of its own, are written out here.
 */

const id = z.string().min(1).max(100);

/** A tank bigger than a road tanker's compartment is a typing mistake (litres). */
export const MAX_TANK_LITRES = 2000;
/** An entry may be stamped a little ahead of the server's clock (a phone's clock runs fast). */
export const FUTURE_SLACK_MS = 5 * 60_000;

export const fuelTankLitresSchema = z
  .number({ invalid_type_error: "Enter litres" })
  .positive("More than 0 litres")
  .max(MAX_TANK_LITRES, `At most ${MAX_TANK_LITRES} litres`);

const volumeLitres = z
  .number({ required_error: "Required", invalid_type_error: "Enter litres" })
  .positive("More than 0 litres")
  .max(MAX_TANK_LITRES, `At most ${MAX_TANK_LITRES} litres`);
const costCents = z
  .number({ invalid_type_error: "Enter a cost in cents" })
  .int("Whole cents")
  .min(0, "0 or more")
  .max(100_000_000_00);
const odometerMiles = z.number({ invalid_type_error: "Enter miles" }).min(0, "0 or more").max(10_000_000);

/** `POST /api/fuel-entries`: `at` is an ISO 8601 instant; the odometer, when absent, is the vehicle's own at that moment. */
export const fuelEntryBodySchema = z.object({
  vehicleId: id,
  at: isoInstant("Use an ISO 8601 time"),
  volumeLitres,
  costCents: costCents.nullish(),
  fullTank: z.boolean({ required_error: "Required", invalid_type_error: "true or false" }),
  odometerMiles: odometerMiles.nullish(),
  ...fuelTable.inputs,
  photoIds: photoIdsSchema.default([]),
});
export type FuelEntryBody = z.input<typeof fuelEntryBodySchema>;
type FuelEntryInput = z.output<typeof fuelEntryBodySchema>;

/** `PATCH /api/fuel-entries/{id}`: any field but the vehicle; null clears cost, odometer and vendor. */
export const fuelEntryPatchSchema = fuelEntryBodySchema.omit({ vehicleId: true }).partial();
export type FuelEntryPatch = z.output<typeof fuelEntryPatchSchema>;

/** `GET /api/fuel-entries?vehicleId=&from=&to=` (ISO 8601 instants or days, `to` exclusive). */
export const fuelEntryQuerySchema = z.object({
  vehicleId: id.optional(),
  from: isoInstant("Use an ISO 8601 time").optional(),
  to: isoInstant("Use an ISO 8601 time").optional(),
});

/** `GET /api/vehicles/{id}/fuel-economy?from=&to=`: the stretches that close in the range. */
export const fuelEconomyQuerySchema = fuelEntryQuerySchema.omit({ vehicleId: true });

/** The sync mutators' arguments: the REST bodies with the id the browser chose. */
export const logFuelEntryArgs = fuelEntryBodySchema.extend({ id });
export type LogFuelEntryArgs = z.input<typeof logFuelEntryArgs>;
export const updateFuelEntryArgs = fuelEntryPatchSchema.extend({ id });
export type UpdateFuelEntryArgs = z.input<typeof updateFuelEntryArgs>;
export const deleteFuelEntryArgs = z.object({ id });
export type DeleteFuelEntryArgs = z.input<typeof deleteFuelEntryArgs>;

/** What makes an entry's figures doubtful; a flagged entry is left out of economy (DESIGN.md). */
export const fuelFlags = ["over_tank", "odometer_backwards", "economy_outlier", "no_rise_seen"] as const;
export type FuelFlag = (typeof fuelFlags)[number];

/** A fuel entry as the REST API answers it: the fields written out, the table's (the vendor, ...), the photos. */
export interface FuelEntry extends FuelTableValues {
  id: string;
  vehicleId: string;
  /** ISO 8601 */
  at: string;
  volumeLitres: number;
  costCents: number | null;
  fullTank: boolean;
  odometerMiles: number | null;
  photoIds: string[];
  createdAt: string;
  flags: FuelFlag[];
}

/** `GET /api/vehicles/{id}/fuel-economy` (worked out by shared/costs/fuel-economy.ts). */
export interface FuelEconomy {
  mpg: number | null;
  litresPer100Km: number | null;
  distanceMiles: number;
  volumeLitres: number;
  /** fill-ups whose fuel the figures count */
  entriesUsed: number;
  /** fill-ups of the stretches in range that carry a flag (economy_outlier included): their stretch is left out */
  entriesFlagged: number;
}

/** The fields an entry keeps, times in ms (the D1 row's and the store's shape less their bookkeeping). */
export interface FuelFields extends FuelTableValues {
  vehicleId: string;
  at: number;
  volumeLitres: number;
  costCents: number | null;
  fullTank: boolean;
  odometerMiles: number | null;
  photoIds: string[];
}

/** A patch applied to an entry's fields: the server's write and the browser's optimistic copy alike. */
export function fuelAfterPatch<F extends FuelFields>(current: F, patch: FuelEntryPatch): F {
  const pick = <K extends keyof FuelEntryPatch & keyof F>(k: K) =>
    (patch[k] === undefined ? current[k] : (patch[k] ?? null)) as F[K];
  return {
    ...current,
    ...fuelTable.patched(current, patch),
    at: patch.at ?? current.at,
    volumeLitres: patch.volumeLitres ?? current.volumeLitres,
    fullTank: patch.fullTank ?? current.fullTank,
    photoIds: patch.photoIds ?? current.photoIds,
    costCents: pick("costCents"),
    odometerMiles: pick("odometerMiles"),
  };
}

export const fuelFieldsOf = (input: Omit<FuelEntryInput, "odometerMiles">, odometer: number | null): FuelFields => ({
  vehicleId: input.vehicleId,
  at: input.at,
  volumeLitres: input.volumeLitres,
  costCents: input.costCents ?? null,
  fullTank: input.fullTank,
  odometerMiles: odometer,
  ...fuelTable.given(input),
  photoIds: input.photoIds,
});

// ------------------------------------------------------------------ the odometer at a moment

/** A trip of the vehicle (a TRANSIT or TOW event): when, and how far in metres. */
export interface TripSpan {
  startTime: number;
  endTime: number | null;
  distance: number | null;
}

/**
 * The vehicle's GPS odometer (miles, one decimal) at `at`: the one it has now less the distance
 * of its trips after `at`, a trip under way at `at` counted by the share of its time after it
 * (the fold's distance is not kept per fix here). Null when the vehicle has no odometer yet.
 */
export function odometerAtMiles(nowOdometerMetres: number | null, trips: readonly TripSpan[], at: number, now: number) {
  if (nowOdometerMetres === null) return null;
  let after = 0;
  for (const t of trips) {
    const end = t.endTime ?? now;
    if (!t.distance || end <= at) continue;
    after += t.startTime >= at ? t.distance : (t.distance * (end - at)) / Math.max(1, end - t.startTime);
  }
  return Math.round((Math.max(0, nowOdometerMetres - after) / METRES_PER_MILE) * 10) / 10;
}

/**
 * The vehicle's engine hours (one decimal) at `at`: the hours it has now less its trips' time after
 * `at` (a trip under way at `at` counted from then). Idling outside trips is not known per moment,
 * so the hours then read at most that much high; still closer than today's hours for a past
 * moment. Null when the vehicle has no hours yet.
 */
export function engineHoursAt(nowHours: number | null, trips: readonly TripSpan[], at: number, now: number) {
  if (nowHours === null) return null;
  let afterMs = 0;
  for (const t of trips) afterMs += Math.max(0, Math.min(t.endTime ?? now, now) - Math.max(t.startTime, at));
  return Math.round(Math.max(0, nowHours - afterMs / 3_600_000) * 10) / 10;
}

// ------------------------------------------------------------------ the synced store (docs/decisions/0045)

/** Keys hold the entry's id packed (docs/decisions/0061), as jobs' and issues' do. */
export const FUEL_ENTRY_PREFIX = "fuel/";
export const fuelEntryKey = (entryId: string) => `${FUEL_ENTRY_PREFIX}${packId(entryId)}`;
/** The entry id of the part of its key after the prefix. */
export const fuelEntryIdOfKeyPart = unpackId;
/** A full sync carries fill-ups of the last this many days (older ones: REST, "Show older"). */
export const SYNCED_FUEL_DAYS = 90;
export const firstSyncedFuelAt = (now: number) => now - SYNCED_FUEL_DAYS * 24 * 60 * 60 * 1000;

export type SyncedFuelEntry = FuelFields & { id: string };
/**
 * Compact (ADR 0013, docs/decisions/0061): a positional array, because a first sync carries every
 * fill-up of 90 days and the issue allows 120 B each. The vehicle's id packed, the time in seconds,
 * litres to 0.01, then the cost and the odometer (null when absent, left out when trailing), then
 * what most fill-ups lack (a partial fill `p`, the vendor, photos) in an object left out when empty.
 */
export type FuelEntryWire = [
  vehicle: string,
  seconds: number,
  litres: number,
  costCents?: number | null,
  odometerMiles?: number | null,
  more?: FuelEntryWireMore,
];
/** The partial fill `p`, the table's fields under their keys (`vn`, ...), the photos `ph`. */
export type FuelEntryWireMore = { p?: 1 } & FuelTableWire & { ph?: string[] };

export function encodeFuelEntry(e: FuelFields): FuelEntryWire {
  const more: FuelEntryWireMore = {};
  if (!e.fullTank) more.p = 1;
  fuelTable.encode(e, more);
  if (e.photoIds.length) more.ph = e.photoIds;
  const tail: (number | FuelEntryWireMore | null)[] = [
    e.costCents,
    e.odometerMiles,
    Object.keys(more).length ? more : null,
  ];
  while (tail.length && tail[tail.length - 1] === null) tail.pop();
  return [
    packId(e.vehicleId),
    Math.floor(e.at / 1000),
    Math.round(e.volumeLitres * 100) / 100,
    ...tail,
  ] as FuelEntryWire;
}

export function decodeFuelEntry(entryId: string, w: FuelEntryWire): SyncedFuelEntry {
  const [vehicle, seconds, litres, costCents, odometerMiles, more = {}] = w;
  return {
    id: entryId,
    vehicleId: unpackId(vehicle),
    at: seconds * 1000,
    volumeLitres: litres,
    costCents: costCents ?? null,
    fullTank: more.p !== 1,
    odometerMiles: odometerMiles ?? null,
    ...fuelTable.decode(more),
    photoIds: more.ph ?? [],
  };
}

// ------------------------------------------------------------------ the Fuel tab's form

/** How the fuel forms speak in each of the workspace's units (docs/decisions/0060): US gallons and miles, or litres and km. */
export const FORM_UNITS = {
  us: { volume: "gal", volumeName: "gallons", maxVolume: 500, distance: "mi", distanceName: "miles" },
  metric: { volume: "L", volumeName: "litres", maxVolume: 1_900, distance: "km", distanceName: "km" },
} as const satisfies Record<WorkspaceUnits, unknown>;

/**
 * "Log fuel": the volume and odometer in the workspace's units and the cost in dollars (sent as
 * litres, miles and cents), at a local date and time.
 */
export function fuelEntryFormSchemaIn(units: WorkspaceUnits) {
  const u = FORM_UNITS[units];
  return z.object({
    at: z
      .string({ required_error: "Required" })
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, "Enter a date and time")
      .refine((v) => Date.parse(v) <= Date.now() + FUTURE_SLACK_MS, "Not in the future"),
    volume: z
      .number({ required_error: "Required", invalid_type_error: `Enter ${u.volumeName}` })
      .positive(`More than 0 ${u.volumeName}`)
      .max(u.maxVolume, `At most ${u.maxVolume} ${u.volumeName}`),
    cost: z
      .number({ invalid_type_error: "Enter a cost" })
      .min(0, "0 or more")
      .max(1_000_000, "At most 1000000")
      .nullish(),
    fullTank: z.boolean().default(false),
    odometer: z
      .number({ invalid_type_error: `Enter ${u.distanceName}` })
      .min(0, "0 or more")
      .max(10_000_000)
      .nullish(),
    ...fuelTable.formChecks,
  });
}

/** A US gallons figure typed in a form, as the litres the API keeps (to the millilitre). */
export const formLitres = (gallons: number) => Math.round(gallonsToLitres(gallons) * 1000) / 1000;

/** A volume typed in the workspace's units, as litres (to the millilitre). */
export const litresFromForm = (units: WorkspaceUnits, volume: number) =>
  units === "metric" ? Math.round(volume * 1000) / 1000 : formLitres(volume);

/** Stored litres as the form shows them in the workspace's units (to the millilitre or thousandth of a gallon). */
export const formVolumeOf = (units: WorkspaceUnits, litres: number) =>
  Math.round((units === "metric" ? litres : litresToGallons(litres)) * 1000) / 1000;

/** An odometer typed in the workspace's units, as the miles the API keeps. */
export const milesFromForm = (units: WorkspaceUnits, odometer: number) =>
  units === "metric" ? odometer / KM_PER_MILE : odometer;

/** Stored miles as the form shows them (km to the metre in metric workspaces). */
export const formOdometerOf = (units: WorkspaceUnits, miles: number) =>
  units === "metric" ? Math.round(miles * KM_PER_MILE * 1000) / 1000 : miles;
