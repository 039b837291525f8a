/**
 * Unit conversions, in one place. Telemetry is stored in SI units (m/s, metres); OsmAnd devices
 * send speeds in knots; the UI shows mph and miles.
 */
export const METRES_PER_SECOND_PER_KNOT = 0.514444;
export const METRES_PER_MILE = 1609.344;
const SECONDS_PER_HOUR = 3600;

export const knotsToMetresPerSecond = (knots: number) => knots * METRES_PER_SECOND_PER_KNOT;
export const metresPerSecondToKnots = (ms: number) => ms / METRES_PER_SECOND_PER_KNOT;
export const metresPerSecondToMph = (ms: number) => (ms * SECONDS_PER_HOUR) / METRES_PER_MILE;
export const mphToMetresPerSecond = (mph: number) => (mph * METRES_PER_MILE) / SECONDS_PER_HOUR;
export const mphToKnots = (mph: number) => metresPerSecondToKnots(mphToMetresPerSecond(mph));
export const metresToMiles = (metres: number) => metres / METRES_PER_MILE;

/** Fuel is stored in litres (DESIGN.md "Fuel, costs and renewals") and shown in US gallons beside miles. */
export const LITRES_PER_US_GALLON = 3.785411784;
export const litresToGallons = (litres: number) => litres / LITRES_PER_US_GALLON;
export const gallonsToLitres = (gallons: number) => gallons * LITRES_PER_US_GALLON;

/**
 * A workspace's units (Preferences, migrations/0033): US (miles, US gallons, mpg) or metric (km,
 * litres, L/100 km). Stored figures stay miles and litres whatever it is; only what is shown changes.
 */
export const workspaceUnitsValues = ["us", "metric"] as const;
export type WorkspaceUnits = (typeof workspaceUnitsValues)[number];
export const KM_PER_MILE = METRES_PER_MILE / 1000;

/** US miles per gallon as litres per 100 km (the same economy, upside down: less is better). */
export const mpgToLitresPer100Km = (mpg: number) => (100 * LITRES_PER_US_GALLON) / (mpg * KM_PER_MILE);
