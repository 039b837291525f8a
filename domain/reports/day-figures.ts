/**
 * A vehicle's figures for a day (domain/reports/rollup.ts adds the day): what a Summary row (a
 * vehicle, the fleet) or a Daily row is made of.
 */
export interface DayFigures {
  distanceMetres: number;
  drivingSeconds: number;
  /** ignition on, not moving */
  idlingSeconds: number;
  /** metres travelled while moving: over drivingSeconds, the average moving speed */
  movingMetres: number;
  /** m/s */
  maxSpeed: number;
  speedingEpisodes: number;
  /** trips (and tows) and stops that began that day */
  trips: number;
  stops: number;
  /** percent of a tank used (sum of drops, refills ignored); null when the device reports no fuel */
  fuelUsedPercent: number | null;
}

/**
 * How several days' (or vehicles') figures make one: each is summed but the top speed, which is the
 * largest. Fuel used stays null only where no day reported fuel (SQL's sum of nulls is null too).
 * The Summary's SQL and its fleet total both follow this table (worker/reports/summary.ts).
 */
export const FIGURE_TOTALS = {
  distanceMetres: "sum",
  drivingSeconds: "sum",
  idlingSeconds: "sum",
  movingMetres: "sum",
  maxSpeed: "max",
  speedingEpisodes: "sum",
  trips: "sum",
  stops: "sum",
  fuelUsedPercent: "sum",
} as const satisfies Record<keyof DayFigures, "sum" | "max">;

export const FIGURE_NAMES = Object.keys(FIGURE_TOTALS) as (keyof DayFigures)[];

/** A day with nothing in it (no fuel reported). */
export const noFigures = (): DayFigures => ({
  distanceMetres: 0,
  drivingSeconds: 0,
  idlingSeconds: 0,
  movingMetres: 0,
  maxSpeed: 0,
  speedingEpisodes: 0,
  trips: 0,
  stops: 0,
  fuelUsedPercent: null,
});

/** The figures of `a` and `b` together, by FIGURE_TOTALS. */
export function addFigures(a: DayFigures, b: DayFigures): DayFigures {
  const total = noFigures();
  for (const name of FIGURE_NAMES) {
    const [x, y] = [a[name], b[name]];
    if (x === null && y === null) continue;
    total[name] = FIGURE_TOTALS[name] === "max" ? Math.max(x ?? 0, y ?? 0) : (x ?? 0) + (y ?? 0);
  }
  return total;
}

/**
 * Several vehicles' figures as one (the Summary's fleet total): as `addFigures`, but fuel used is a
 * percentage of each vehicle's own tank, and percentages of different tanks do not add up (two
 * vehicles at 45 % are not a fleet at 90 %), so the fleet has none (shown "—").
 */
export function addVehicles(a: DayFigures, b: DayFigures): DayFigures {
  return { ...addFigures(a, b), fuelUsedPercent: null };
}
