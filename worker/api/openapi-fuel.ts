import { z } from "zod";
import type { FuelEconomy } from "../../domain/fuel/economy";
import {
  fuelEconomyQuerySchema,
  fuelEntryBodySchema,
  fuelEntryPatchSchema,
  fuelEntryQuerySchema,
  fuelFlags,
  type FuelEntry,
} from "../../shared/fuel";
import { vehiclePatchSchema } from "../../shared/mutators";
import { timelineEventQuerySchema, timelineEventTypes, type TimelineEventItem } from "../../shared/timeline-events";
import type { Operation } from "./openapi-operation";
import type { VehicleSettings } from "./vehicle-settings";

/** The fuel log's routes and a vehicle's settings in GET /api/openapi.json (issue 42, DESIGN.md "Fuel, costs and renewals"). */
const nullableString = z.string().nullable();

const fuelEntry: z.ZodType<FuelEntry> = z.object({
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

const vehicleSettings: z.ZodType<VehicleSettings> = z.object({
  id: z.string(),
  name: z.string(),
  vin: nullableString,
  year: z.number().int().nullable(),
  make: nullableString,
  model: nullableString,
  fuelTankLitres: z.number().nullable(),
});

const fuelEconomy: z.ZodType<FuelEconomy> = z.object({
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

export const fuelOperations: Record<string, Operation> = {
  "PATCH /vehicles/:vehicleId": {
    summary: "Change a vehicle's settings (name, VIN, year, make, model, fuel tank in litres); null clears one",
    tag: "Fleet",
    body: vehiclePatchSchema,
    response: vehicleSettings,
  },
  "GET /fuel-entries": {
    summary: "Fill-ups, newest first (at most 1,000; `to` exclusive), each with its flags",
    tag: "Fuel and costs",
    query: fuelEntryQuerySchema,
    response: z.object({ entries: z.array(fuelEntry) }),
  },
  "POST /fuel-entries": {
    summary: "Log a fill-up; the odometer defaults to the vehicle's GPS odometer at `at`",
    tag: "Fuel and costs",
    body: fuelEntryBodySchema,
    response: fuelEntry,
    status: 201,
  },
  "PATCH /fuel-entries/:id": {
    summary: "Correct a fill-up (owners and admins); null clears cost, odometer or vendor",
    tag: "Fuel and costs",
    body: fuelEntryPatchSchema,
    response: fuelEntry,
  },
  "GET /vehicles/:vehicleId/fuel-economy": {
    summary: "Fuel economy, full tank to full tank (partial fills carried), of the stretches closed in the range",
    tag: "Fuel and costs",
    query: fuelEconomyQuerySchema,
    response: fuelEconomy,
  },
  "GET /vehicles/:vehicleId/events": {
    summary:
      "A vehicle's timeline events starting in the range (default the last 7 days), oldest first: trips, stops, and refuels and fuel drops seen in the beacon's fuel level",
    tag: "Fuel and costs",
    query: timelineEventQuerySchema,
    response: z.object({ events: z.array(timelineEvent) }),
  },
  "DELETE /fuel-entries/:id": { summary: "Delete a fill-up (owners and admins)", tag: "Fuel and costs", status: 204 },
};
