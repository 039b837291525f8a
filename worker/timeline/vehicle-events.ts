import { and, asc, eq, gte, lt, not, sql } from "drizzle-orm";
import {
  apiTypeOf,
  MAX_TIMELINE_EVENTS,
  storedTypeOf,
  TIMELINE_DEFAULT_DAYS,
  type TimelineEventItem,
  type TimelineEventQuery,
} from "../../shared/fleet/timeline-events";
import { fuelChangeLitres, isFuelEvent, isTrip, type TimelineEventType } from "../../shared/fleet/vehicle-event";
import { metresToMiles } from "../../shared/units/units";
import type { Db } from "../../db/client";
import { vehicleEvents } from "../../db/schema";

const DAY = 86_400_000;
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * A vehicle's timeline events that start in the range, oldest first. Events that left the synced
 * set are soft-deleted rows and still read (until their tombstones are collected, 30 days); one a
 * late report's re-fold withdrew (deleted, no length: docs/decisions/0037) is not an event.
 */
export async function vehicleTimelineEvents(
  db: Db,
  workspaceId: string,
  vehicle: { id: string; fuelTankLitres: number | null },
  query: TimelineEventQuery,
  now: number,
): Promise<TimelineEventItem[]> {
  const to = query.to ?? now;
  const from = query.from ?? to - TIMELINE_DEFAULT_DAYS * DAY;
  const where = [
    eq(vehicleEvents.workspaceId, workspaceId),
    eq(vehicleEvents.vehicleId, vehicle.id),
    gte(vehicleEvents.startTime, from),
    lt(vehicleEvents.startTime, to),
    not(and(eq(vehicleEvents.deleted, true), sql`${vehicleEvents.endTime} = ${vehicleEvents.startTime}`)!),
  ];
  if (query.type) where.push(eq(vehicleEvents.type, storedTypeOf(query.type)));
  const rows = await db
    .select()
    .from(vehicleEvents)
    .where(and(...where))
    .orderBy(asc(vehicleEvents.startTime), asc(vehicleEvents.id))
    .limit(MAX_TIMELINE_EVENTS)
    .all();
  return rows.map((row) => toItem(row, vehicle.fuelTankLitres));
}

function toItem(row: typeof vehicleEvents.$inferSelect, tankLitres: number | null): TimelineEventItem {
  const type = row.type as TimelineEventType;
  const item: TimelineEventItem = {
    id: row.id,
    type: apiTypeOf(type),
    start: new Date(row.startTime).toISOString(),
    end: row.endTime === null ? null : new Date(row.endTime).toISOString(),
    latitude: row.latitude,
    longitude: row.longitude,
  };
  if (isTrip(type)) item.distanceMiles = row.distance === null ? null : round(metresToMiles(row.distance), 2);
  if (isFuelEvent(type)) {
    item.litres = fuelChangeLitres(row, tankLitres);
    item.fuelFromPercent = row.fuelFrom;
    item.fuelToPercent = row.fuelTo;
  }
  return item;
}
