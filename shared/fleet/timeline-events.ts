import { z } from "zod";
import { isoInstant } from "../units/instant";
import type { TimelineEventType } from "./vehicle-event";

/**
 * `GET /api/vehicles/{id}/events?from=&to=&type=` (DESIGN.md "Fuel, costs and renewals"): a
 * vehicle's timeline events for integrators, trips and stops as well as the refuels and fuel drops
 * the beacon's fuel level showed (docs/decisions/0050). Types are the stored ones in lower case.
 */
export const timelineEventTypes = ["transit", "stop", "tow", "refuel", "fuel_drop"] as const;
export type TimelineEventApiType = (typeof timelineEventTypes)[number];
export const apiTypeOf = (type: TimelineEventType) => type.toLowerCase() as TimelineEventApiType;
export const storedTypeOf = (type: TimelineEventApiType) => type.toUpperCase() as TimelineEventType;

/** Without `from`, the 7 days before `to` (default now); at most MAX_TIMELINE_EVENTS, oldest first. */
export const TIMELINE_DEFAULT_DAYS = 7;
export const MAX_TIMELINE_EVENTS = 1000;

export const timelineEventQuerySchema = z.object({
  from: isoInstant("Use an ISO 8601 time").optional(),
  to: isoInstant("Use an ISO 8601 time").optional(),
  type: z
    .enum(timelineEventTypes, { errorMap: () => ({ message: `One of ${timelineEventTypes.join(", ")}` }) })
    .optional(),
});
/** What is wrong with a range whose both ends are given, or null. */
export const timelineRangeProblem = (q: { from?: number; to?: number }) =>
  q.from !== undefined && q.to !== undefined && q.from >= q.to ? "from must be before to" : null;
export type TimelineEventQuery = z.output<typeof timelineEventQuerySchema>;

/** One event as the API answers it: instants in ISO 8601, figures for its kind only. */
export interface TimelineEventItem {
  id: string;
  type: TimelineEventApiType;
  start: string;
  /** null while the event goes on */
  end: string | null;
  latitude: number | null;
  longitude: number | null;
  /** trips: miles travelled */
  distanceMiles?: number | null;
  /** refuels and drops: litres added or lost (null while the vehicle's tank is not set) */
  litres?: number | null;
  /** refuels and drops: the fuel level before and after, percent of the tank */
  fuelFromPercent?: number | null;
  fuelToPercent?: number | null;
}
