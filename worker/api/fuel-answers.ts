import { z } from "zod";
import type { FuelEconomy } from "../../shared/costs/fuel-economy";
import { fuelFlags, type FuelEntry } from "../../shared/costs/fuel";
import { fuelTable } from "../../shared/costs/fuel-fields";
import { timelineEventTypes, type TimelineEventItem } from "../../shared/fleet/timeline-events";

/** What the fuel log's routes and a vehicle's settings answer, for their declarations (issue 42, DESIGN.md "Fuel, costs and renewals"). */

export const fuelEntry: z.ZodType<FuelEntry> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  at: z.string().describe("ISO 8601"),
  volumeLitres: z.number(),
  costCents: z.number().int().nullable(),
  fullTank: z.boolean(),
  odometerMiles: z.number().nullable().describe("The vehicle's GPS odometer at `at` unless given"),
  // the table's fields (shared/costs/fuel-fields.ts): the vendor, ...
  ...fuelTable.answers,
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

const timelineEvent: z.ZodType<TimelineEventItem> = z.object({
  id: z.string(),
  type: z.enum(timelineEventTypes),
  start: z.string().describe("ISO 8601"),
  end: z.string().nullable().describe("ISO 8601; null while it goes on"),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  distanceMiles: z.number().nullable().optional().describe("Trips (transit, tow)"),
  litres: z
    .number()
    .nullable()
    .optional()
    .describe("Refuels and fuel drops: litres added or lost; null until the vehicle's tank is set"),
  fuelFromPercent: z.number().nullable().optional().describe("Refuels and fuel drops: the level before"),
  fuelToPercent: z.number().nullable().optional().describe("Refuels and fuel drops: the level after"),
});

/** GET /vehicles/:vehicleId/events (worker/api/vehicle-events.ts). */
export const timelineEventsAnswer = z.object({ events: z.array(timelineEvent) });
