import type { DayRollup } from "./rollup";

/** A day rollup's figures without its day: what a Summary row (a vehicle, the fleet) or a Daily row is made of. */
export type DayFigures = Omit<DayRollup, "day">;

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
