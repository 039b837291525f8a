import { z } from "zod";
import { setIfPresent } from "../sync/wire";

/**
 * A driver: a person of the fleet, not an account (docs/decisions/0018). Synced under
 * `driver/{id}`; vehicles name theirs by id (`vehicle.driverId`).
 */
export const DRIVER_PREFIX = "driver/";
export const driverKey = (id: string) => `${DRIVER_PREFIX}${id}`;

export interface Driver {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
}

/** As synced and stored (docs/decisions/0013): the id is the key's, nulls left out. */
export type DriverWire = {
  /** name */
  n: string;
  /** email */
  e?: string;
  /** phone */
  p?: string;
};

export function encodeDriver(d: Omit<Driver, "id">): DriverWire {
  const w: DriverWire = { n: d.name };
  setIfPresent(w, "e", d.email);
  setIfPresent(w, "p", d.phone);
  return w;
}

export const decodeDriver = (id: string, w: DriverWire): Driver => ({
  id,
  name: w.n,
  email: w.e ?? null,
  phone: w.p ?? null,
});

/** A text field that may be left empty (null), checked with `schema` when given. */
const optional = <T extends z.ZodType<string, z.ZodTypeDef, string>>(schema: T) =>
  z
    .string()
    .trim()
    .nullable()
    .optional()
    .transform((v) => v || null)
    .pipe(schema.nullable());

/** The New Person / edit form's rules, and the mutations' (name required; e-mail and phone checked when given). */
export const driverFields = {
  name: z.string({ required_error: "Required" }).trim().min(1, "Required").max(80, "Use at most 80 characters"),
  email: optional(z.string().trim().max(254, "Invalid email address").email("Invalid email address").toLowerCase()),
  phone: optional(
    z
      .string()
      .trim()
      .regex(/^\+?\(?[0-9][0-9 ().-]{5,22}[0-9]$/, "Enter a phone number, digits with an optional leading +"),
  ),
};
export const driverFormSchema = z.object(driverFields);
export const driverArgs = z.object({ id: z.string().min(1).max(100), ...driverFields });
export type DriverArgs = z.input<typeof driverArgs>;
export const assignDriverArgs = z.object({
  vehicleId: z.string().min(1).max(100),
  driverId: z.string().min(1).max(100).nullable(),
});
export type AssignDriverArgs = z.input<typeof assignDriverArgs>;
