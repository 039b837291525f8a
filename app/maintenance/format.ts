import { serviceStatusLabels, type ServiceSchedule } from "../../shared/maintenance/service";

export const money = (cents: number | null) =>
  cents === null
    ? "—"
    : `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** "Every 5,000 mi or 180 days" */
export function intervalText(s: Pick<ServiceSchedule, "everyMiles" | "everyEngineHours" | "everyDays">): string {
  const parts = [
    s.everyMiles ? `${s.everyMiles.toLocaleString("en-US")} mi` : null,
    s.everyEngineHours ? `${s.everyEngineHours.toLocaleString("en-US")} engine h` : null,
    s.everyDays ? `${s.everyDays} days` : null,
  ].filter(Boolean);
  return `Every ${parts.join(" or ")}`;
}

/** "Due at 15,000 mi or 2026-03-01" */
export function nextDueText(s: ServiceSchedule): string {
  const parts = [
    s.nextDueMiles !== null ? `${Math.round(s.nextDueMiles).toLocaleString("en-US")} mi` : null,
    s.nextDueEngineHours !== null ? `${Math.round(s.nextDueEngineHours)} engine h` : null,
    s.nextDueAt ? s.nextDueAt.slice(0, 10) : null,
  ].filter(Boolean);
  return `Due at ${parts.join(" or ")}`;
}

export const statusLabel = (s: ServiceSchedule) => serviceStatusLabels[s.status];
