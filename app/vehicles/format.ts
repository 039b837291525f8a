/** Display rules of docs/product.md for vehicles, telemetry and the timeline. Pure, unit-tested. */

import { dateText, type WorkspaceClock } from "../../shared/units/clock";
import { dayOf } from "../../shared/units/time-zone";
import { metresPerSecondToMph, metresToMiles } from "../../shared/units/units";

/** Empty values show a dash. */
export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === "" ? "-" : String(value);
}

/** The header's year · make · model · VIN: only the parts that are known, in that order. */
export function identityParts(vehicle: {
  year?: number | null;
  make?: string | null;
  model?: string | null;
  vin?: string | null;
}): string[] {
  return [vehicle.year, vehicle.make, vehicle.model, vehicle.vin]
    .filter((part) => part !== null && part !== undefined && String(part).trim() !== "")
    .map(String);
}

/** "PICKUP_TRUCK" → "Pickup Truck"; SUV stays SUV. */
export function formatType(value: string | null | undefined): string {
  if (!value) return "-";
  return value
    .split("_")
    .filter(Boolean)
    .map((word) => (word.toUpperCase() === "SUV" ? "SUV" : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join(" ");
}

export function mph(metresPerSecond: number | null | undefined): string {
  if (metresPerSecond === null || metresPerSecond === undefined) return "-";
  return `${Math.round(metresPerSecondToMph(metresPerSecond))} mph`;
}

/** Odometer in miles with thousands separators. */
export function miles(metres: number | null | undefined): string {
  if (metres === null || metres === undefined) return "-";
  return `${Math.round(metresToMiles(metres)).toLocaleString("en-US")} mi`;
}

export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined) return "-";
  return `${Math.round(value)}%`;
}

/** Time in the current status: hours and minutes. */
export function hoursMinutes(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Timeline durations: days/hours, hours/minutes, or minutes. */
export function duration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days > 0) return `${days}d ${hours % 24}h`;
  if (hours > 0) return `${hours}h ${minutes % 60}m`;
  return `${minutes}m`;
}

/** Timeline day headings: "Today", or the day in the one date format (2026-11-03), on the workspace's calendar. */
export function dayHeading(time: number, now: number, clock: Pick<WorkspaceClock, "timeZone">): string {
  const day = dayOf(time, clock.timeZone);
  return day === dayOf(now, clock.timeZone) ? "Today" : dateText(day, clock);
}

export const EVENT_LABELS = {
  TRANSIT: "driving",
  STOP: "parked",
  TOW: "towed",
  REFUEL: "refuelled",
  FUEL_DROP: "fuel drop",
} as const;

/** Telemetry status for people: off is "Parked". */
export function statusLabel(status: string | undefined): string {
  switch (status) {
    case "off":
      return "Parked";
    case "moving":
      return "Driving";
    case "idle":
      return "Idling";
    case "towing":
      return "Towed";
    default:
      return "No data";
  }
}

export function milesFromMetres(metres: number | null | undefined): string {
  if (metres === null || metres === undefined) return "-";
  return `${metresToMiles(metres).toFixed(1)} mi`;
}
