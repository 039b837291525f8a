import { sql } from "drizzle-orm";
import type { StopRow, TripRow } from "../../shared/reports/reports";
import { isoWithOffset } from "../../shared/units/time-zone";
import type { StreetAddress, VehicleEventType } from "../../shared/fleet/vehicle-event";
import { metresPerSecondToMph, metresToMiles } from "../../shared/units/units";
import type { Db } from "../../db/client";
import type { ReportRange } from "./range";
import type { ReportVehicle } from "./report-vehicles";

/** A timeline event with its rollup figures (event_rollups), as the Trips and Stops reports read it. */
interface EventRow extends StreetAddress {
  id: string;
  vehicleId: string;
  type: VehicleEventType;
  startTime: number;
  endTime: number | null;
  latitude: number | null;
  longitude: number | null;
  /** the detector's own distance, for events from before the rollups */
  distance: number | null;
  rollupMetres: number | null;
  rollupMaxSpeed: number | null;
  rollupIdling: number | null;
}

/** Trips and stops tile a vehicle's time; refuels and drops (docs/decisions/0050) sit inside stops and are no part of it. */
const motion = (alias: string) => sql.raw(`${alias}.type IN ('TRANSIT', 'STOP', 'TOW')`);

/** At most this many events in one answer. */
export const MAX_EVENTS = 50_000;

const columns = sql`e.id, e.vehicle_id AS vehicleId, e.type, e.start_time AS startTime, e.end_time AS endTime, e.latitude, e.longitude,
  e.street_number AS streetNumber, e.street, e.city, e.state, e.postal_code AS postalCode, e.distance,
  r.distance_metres AS rollupMetres, r.max_speed AS rollupMaxSpeed, r.idling_seconds AS rollupIdling`;

/**
 * Every event of the workspace that overlaps the range, oldest first per vehicle: those that
 * start in it (index on workspace and start), plus each vehicle's event already going on when
 * it begins (found per vehicle through the (vehicle, start) index). Every event is kept in D1,
 * soft-deleted ones too (only the synced set forgets them), so all are read; an event a late
 * report's re-fold dropped is soft-deleted with no length (docs/decisions/0037), which `clip` skips.
 */
async function eventsOverlapping(
  db: Db,
  workspaceId: string,
  range: ReportRange,
): Promise<{ rows: EventRow[]; truncated: boolean }> {
  const within =
    db.all<EventRow>(sql`SELECT ${columns} FROM vehicle_events e LEFT JOIN event_rollups r ON r.event_id = e.id
    WHERE e.workspace_id = ${workspaceId} AND e.start_time >= ${range.start} AND e.start_time < ${range.end} AND ${motion("e")}
    ORDER BY e.start_time LIMIT ${MAX_EVENTS + 1}`);
  const ongoing =
    db.all<EventRow>(sql`SELECT ${columns} FROM vehicle_events e LEFT JOIN event_rollups r ON r.event_id = e.id
    WHERE e.id IN (SELECT (SELECT x.id FROM vehicle_events x WHERE x.vehicle_id = v.id AND x.start_time < ${range.start}
                           AND NOT (x.deleted = 1 AND x.end_time = x.start_time) AND ${motion("x")}
                           ORDER BY x.start_time DESC LIMIT 1)
                   FROM vehicles v WHERE v.workspace_id = ${workspaceId})
      AND (e.end_time IS NULL OR e.end_time > ${range.start})`);
  const [first, inside] = await Promise.all([ongoing, within]);
  const truncated = inside.length > MAX_EVENTS;
  return { rows: [...first, ...inside.slice(0, MAX_EVENTS)], truncated };
}

/** Per vehicle, its events in time order. */
function byVehicle(rows: EventRow[]): Map<string, EventRow[]> {
  const map = new Map<string, EventRow[]>();
  for (const row of rows) {
    const list = map.get(row.vehicleId) ?? [];
    list.push(row);
    map.set(row.vehicleId, list);
  }
  for (const list of map.values()) list.sort((a, b) => a.startTime - b.startTime);
  return map;
}

/** "12 N State St, Chicago, IL 60602" from what the geocoder found; null when it found nothing. */
function addressOf(e: EventRow | undefined): string | null {
  if (!e) return null;
  const street = [e.streetNumber, e.street].filter(Boolean).join(" ");
  const region = [e.state, e.postalCode].filter(Boolean).join(" ");
  const text = [street, e.city, region].filter(Boolean).join(", ");
  return text || null;
}

/**
 * The part of an event inside the range and before now: an event still going on (no end yet)
 * runs to now (a stop) or to its vehicle's latest report (a trip); one that goes on past the range is cut at its end, its
 * distance in proportion to time. Null when nothing of it is inside.
 */
function clip(e: EventRow, range: ReportRange, lastSeen: number | null, now: number) {
  // A stop still going on lasts until now; a trip's known part ends at the vehicle's last report.
  const openEnd = e.type === "STOP" ? now : Math.min(lastSeen ?? now, now);
  const naturalEnd = e.endTime ?? Math.max(e.startTime, openEnd);
  const start = Math.max(e.startTime, range.start);
  const end = Math.min(naturalEnd, range.end);
  if (end < start || (end === start && e.endTime !== null)) return null;
  const whole = naturalEnd - e.startTime;
  const share = whole > 0 ? (end - start) / whole : 1;
  return { start, end, share, inProgress: e.endTime === null || e.endTime > range.end };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function tripsReport(
  db: Db,
  workspaceId: string,
  range: ReportRange,
  vehicles: ReportVehicle[],
  now = Date.now(),
) {
  const { rows: events, truncated } = await eventsOverlapping(db, workspaceId, range);
  const grouped = byVehicle(events);
  const rows: TripRow[] = [];
  for (const v of vehicles) {
    const list = grouped.get(v.id) ?? [];
    list.forEach((e, i) => {
      if (e.type === "STOP") return;
      const part = clip(e, range, v.lastSeen, now);
      if (!part) return;
      const seconds = (part.end - part.start) / 1000;
      const metres = (e.rollupMetres ?? e.distance ?? 0) * part.share;
      const before = list[i - 1];
      const after = part.inProgress ? undefined : list[i + 1];
      rows.push({
        vehicleId: v.id,
        vehicleName: v.name,
        driver: v.driver,
        type: e.type,
        start: isoWithOffset(part.start, range.timeZone),
        end: isoWithOffset(part.end, range.timeZone),
        startLatitude: e.latitude,
        startLongitude: e.longitude,
        startAddress: before?.type === "STOP" ? addressOf(before) : null,
        endLatitude: after?.latitude ?? null,
        endLongitude: after?.longitude ?? null,
        endAddress: after?.type === "STOP" ? addressOf(after) : null,
        distanceMiles: round(metresToMiles(metres), 2),
        durationSeconds: Math.round(seconds),
        maxSpeedMph: e.rollupMaxSpeed === null ? null : round(metresPerSecondToMph(e.rollupMaxSpeed), 1),
        averageSpeedMph: seconds > 0 ? round(metresPerSecondToMph(metres / seconds), 1) : 0,
        inProgress: part.inProgress,
      });
    });
  }
  return { rows, truncated };
}

export async function stopsReport(
  db: Db,
  workspaceId: string,
  range: ReportRange,
  vehicles: ReportVehicle[],
  now = Date.now(),
) {
  const { rows: events, truncated } = await eventsOverlapping(db, workspaceId, range);
  const grouped = byVehicle(events);
  const rows: StopRow[] = [];
  for (const v of vehicles) {
    for (const e of grouped.get(v.id) ?? []) {
      if (e.type !== "STOP") continue;
      const part = clip(e, range, v.lastSeen, now);
      if (!part) continue;
      const idling = Math.round((e.rollupIdling ?? 0) * part.share);
      rows.push({
        vehicleId: v.id,
        vehicleName: v.name,
        start: isoWithOffset(part.start, range.timeZone),
        end: isoWithOffset(part.end, range.timeZone),
        durationSeconds: Math.round((part.end - part.start) / 1000),
        latitude: e.latitude,
        longitude: e.longitude,
        address: addressOf(e),
        idlingSeconds: idling,
        ignition: idling > 0 ? "on" : "off",
        inProgress: part.inProgress,
      });
    }
  }
  return { rows, truncated };
}
