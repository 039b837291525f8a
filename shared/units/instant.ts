import { z } from "zod";

/**
 * The instants the API takes (issue 34): years 2000 to 2100. Beyond what a fleet can have
 * recorded, and far inside what `Intl` and `Date` can format (a year like +275760 made a report
 * answer 500); anything outside is a 400 with this message.
 */
export const MIN_INSTANT = Date.UTC(2000, 0, 1);
export const MAX_INSTANT = Date.UTC(2101, 0, 1) - 1;
export const INSTANT_RANGE_MESSAGE = "Times must be in the years 2000 to 2100";

export const inInstantRange = (ms: number) => Number.isFinite(ms) && ms >= MIN_INSTANT && ms <= MAX_INSTANT;

/** ms since the epoch, as a query parameter, within the range. */
export const msInstant = z.coerce
  .number({ invalid_type_error: "Enter a time in milliseconds" })
  .int("Enter a whole number of milliseconds")
  .refine(inInstantRange, INSTANT_RANGE_MESSAGE);

/** An ISO 8601 instant with its offset, within the range, as ms. */
export const isoInstant = (message: string) =>
  z
    .string()
    .datetime({ offset: true, message })
    .transform((s) => Date.parse(s))
    .refine(inInstantRange, INSTANT_RANGE_MESSAGE);

/** A calendar day (YYYY-MM-DD) that exists and lies within the range. */
export function isDayInRange(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const ms = Date.parse(`${v}T00:00:00Z`);
  return inInstantRange(ms) && new Date(ms).toISOString().slice(0, 10) === v;
}
