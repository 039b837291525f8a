import { alertTypeLabels, isNotice, type Alert } from "../../shared/alerts/alert-rules";
import { alertJob, jobLabel } from "../../shared/alerts/alerts";
import { litresToGallons } from "../../shared/units/units";
import type { WorkspaceClock } from "../../shared/units/clock";
import { dayHeading } from "../vehicles/format";

/** Alerts grouped by the workspace's day like the timeline (newest first in, newest first out). */
export function groupByDay<T extends { at: number }>(
  alerts: readonly T[],
  now: number,
  clock: Pick<WorkspaceClock, "timeZone">,
): { day: string; alerts: T[] }[] {
  const groups: { day: string; alerts: T[] }[] = [];
  for (const alert of alerts) {
    const day = dayHeading(alert.at, now, clock);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.alerts.push(alert);
    else groups.push({ day, alerts: [alert] });
  }
  return groups;
}

/** What happened, in a line: "Speeding, peak 84 mph for 3m", "Entered a place: Depot". */
export function describeAlert(alert: Alert, placeName: string | undefined): string {
  const label = alertTypeLabels[alert.type];
  if (alert.type === "place_enter" || alert.type === "place_exit") return `${label}: ${placeName ?? "a deleted place"}`;
  // "Arrived at a job: #12 Deliver pallets": the job as it was when it happened (kept on the alert)
  const job = alertJob(alert);
  if (job) return `${label}: ${jobLabel(job)}`;
  // one raised before alerts kept their job: an instant, so no "ongoing"
  if (alert.type.startsWith("job_")) return label;
  // "Service due soon", "Service overdue": the Service tab says which schedule.
  if (isNotice(alert.type)) return label;
  const parts = [label];
  if (alert.peak !== null && (alert.type === "speeding" || alert.type === "tow"))
    parts.push(`peak ${Math.round(alert.peak)} mph`);
  if (alert.peak !== null && alert.type === "clock_ahead") parts.push(`${Math.round(alert.peak / 60)} min ahead`);
  if (alert.peak !== null && alert.type === "fuel_drop")
    parts.push(`${litresToGallons(alert.peak).toFixed(1)} gal lost`);
  if (alert.endAt !== null) parts.push(`for ${minutesText(alert.endAt - alert.at)}`);
  else parts.push("ongoing");
  return parts.join(", ");
}

function minutesText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes}m` : `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
