import { z } from "zod";

/**
 * The checks maintenance's bodies share (issue 55, docs/decisions/0087): work orders and their
 * lines (shared/maintenance/work-orders.ts) and the field tables of work orders, parts and vendors
 * (work-order-fields.ts, part-fields.ts, vendor-fields.ts), which that module reads, so the tables
 * cannot import them from it.
 */

/** A text, trimmed, at most `max` characters. */
export const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

/** A text an entity may lack: left out keeps it (a PATCH that does not name it); null or empty clears it. */
export const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null));

/** An amount in whole cents; `what` names it in the message for a value that is not a number. */
export const cents = (what: string) =>
  z
    .number({ required_error: "Required", invalid_type_error: `Enter ${what} in cents` })
    .int("Whole cents")
    .min(0, "0 or more")
    .max(100_000_000_00, "At most 10000000000");
