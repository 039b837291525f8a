import { z } from "zod";

/**
 * Timeline events, keyed `event/{vehicleId}/{eventId}` so one vehicle's events are one prefix
 * scan. Event ids sort by start time, so a scan returns them in chronological order. The server
 * keeps only each vehicle's latest events in the synced set (older ones are sent as `del`).
 */
export const EVENT_PREFIX = "event/";
export const vehicleEventsPrefix = (vehicleId: string) => `${EVENT_PREFIX}${vehicleId}/`;
export const vehicleEventKey = (vehicleId: string, eventId: string) => `${EVENT_PREFIX}${vehicleId}/${eventId}`;
/** How many of a vehicle's latest events the synced store keeps (the timeline shows 3). */
export const SYNCED_EVENTS_PER_VEHICLE = 10;

export const vehicleEventTypes = ["TRANSIT", "STOP", "TOW"] as const;
export type VehicleEventType = (typeof vehicleEventTypes)[number];

export const vehicleEventSchema = z.object({
  id: z.string(),
  vehicleId: z.string(),
  type: z.enum(vehicleEventTypes),
  startTime: z.number(),
  /** null while the event is still going on */
  endTime: z.number().nullable(),
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      streetNumber: z.string().nullable(),
      street: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      postalCode: z.string().nullable(),
    })
    .nullable(),
  /** TRANSIT/TOW: metres travelled */
  distance: z.number().nullable(),
  /** TRANSIT/TOW: mean speed in m/s */
  averageSpeed: z.number().nullable(),
});
export type VehicleEvent = z.infer<typeof vehicleEventSchema>;
