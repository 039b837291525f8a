import { z } from "zod";
import type { FuelEconomy } from "../../domain/fuel/economy";
import { fuelFlags, type FuelEntry } from "../../shared/fuel";

/** What the fuel log's routes and a vehicle's settings answer, for their declarations (issue 42, DESIGN.md "Fuel, costs and renewals"). */
const nullableString = z.string().nullable();

export const fuelEntry: z.ZodType<FuelEntry> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  at: z.string().describe("ISO 8601"),
  volumeLitres: z.number(),
  costCents: z.number().int().nullable(),
  fullTank: z.boolean(),
  odometerMiles: z.number().nullable().describe("The vehicle's GPS odometer at `at` unless given"),
  vendor: nullableString,
  photoIds: z.array(z.string()),
  createdAt: z.string().describe("ISO 8601"),
  flags: z.array(z.enum(fuelFlags)).describe("A flagged entry is left out of fuel economy"),
});

export const fuelEconomy: z.ZodType<FuelEconomy> = z.object({
  mpg: z.number().nullable().describe("US gallons"),
  litresPer100Km: z.number().nullable(),
  distanceMiles: z.number(),
  volumeLitres: z.number(),
  entriesUsed: z.number().int(),
  entriesFlagged: z.number().int().describe("Fill-ups with a flag: their full-to-full stretch is left out"),
});
