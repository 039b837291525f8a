import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ISSUE_PRIORITIES, priorityLabels } from "../../shared/maintenance/issues";
import { relativeChange, type MonthCosts } from "../../shared/overview/month-cost";
import { FLEET_STATUSES, type FleetStatus } from "../../shared/fleet/vehicle-state";
import { money } from "../maintenance/format";
import type { WorkspaceUnits } from "../../shared/units/units";
import { distanceText, distanceUnit, distanceWord, perDistanceCents } from "../units/units-text";
import type { Overview } from "./use-overview";

const STATUS_LABELS: Record<FleetStatus, string> = {
  moving: "Moving",
  idle: "Idle",
  parked: "Parked",
  silent: "Silent",
};

/** One figure: its number large, what it counts below, and the page that lists it (filtered). */
export function Figure({ to, label, value, tone }: { to: string; label: string; value: ReactNode; tone?: string }) {
  return (
    <Link to={to} className={`overview-figure${tone ? ` ${tone}` : ""}`} aria-label={`${label}: ${value}`}>
      <span className="overview-value">{value}</span>
      <span className="overview-label">{label}</span>
    </Link>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card overview-card" aria-label={title}>
      <h2>{title}</h2>
      <div className="overview-figures">{children}</div>
    </section>
  );
}

/** Vehicles by the map's colours; each opens the Vehicles list of that status. */
export function VehiclesCard({ counts }: { counts: Overview["vehicles"] }) {
  return (
    <Card title="Vehicles">
      {FLEET_STATUSES.map((s) => (
        <Figure key={s} to={`/vehicles?status=${s}`} label={STATUS_LABELS[s]} value={counts[s]} tone={`fleet-${s}`} />
      ))}
    </Card>
  );
}

/** Open issues, the most urgent first; each opens the Issues list of that priority. */
export function IssuesCard({ counts }: { counts: Overview["issues"] }) {
  return (
    <Card title="Open issues">
      {[...ISSUE_PRIORITIES].reverse().map((p) => (
        <Figure key={p} to={`/issues?priority=${p}`} label={priorityLabels[p]} value={counts[p]} />
      ))}
    </Card>
  );
}

/** What is due: service and renewals (as My actions lists them), today's missing inspections, unread alerts. */
export function DueCard({ overview }: { overview: Overview }) {
  const { service, renewals, uninspected, unreadAlerts } = overview;
  return (
    <Card title="Due">
      <Figure to="/actions" label="Service overdue" value={service.overdue} tone={service.overdue ? "overdue" : ""} />
      <Figure to="/actions" label="Service due soon" value={service.dueSoon} />
      <Figure
        to="/actions"
        label="Renewals overdue"
        value={renewals.overdue}
        tone={renewals.overdue ? "overdue" : ""}
      />
      <Figure to="/actions" label="Renewals due soon" value={renewals.dueSoon} />
      <Figure to="/inspections" label="Not inspected today" value={uninspected} />
      <Figure to="/inbox" label="Unread alerts" value={unreadAlerts} />
    </Card>
  );
}

/** "$3.00/mi" or "$1.86/km"; "—" when no distance could be told. */
const perDistance = (centsPerMile: number | null, units: WorkspaceUnits) =>
  centsPerMile === null ? "—" : `${money(Math.round(perDistanceCents(centsPerMile, units)))}/${distanceUnit(units)}`;

function changeText(change: number | null): string {
  if (change === null) return "";
  const percent = Math.round(change * 100);
  if (percent === 0) return "same as last month";
  return `${percent > 0 ? "up" : "down"} ${Math.abs(percent)} % on last month`;
}

/**
 * This month so far against last month: what the fleet cost, and per mile (or km: Preferences → Units),
 * the cost report's own figures for the same days (null until the server has answered once).
 */
export function CostsCard({ costs, units }: { costs: MonthCosts | null; units: WorkspaceUnits }) {
  const per = distanceWord(units);
  if (!costs) {
    return (
      <Card title="Costs">
        <Figure to="/reports" label="This month" value="—" />
        <Figure to="/reports" label={`Cost per ${per}`} value="—" />
        <p className="overview-note muted">Costs show once the server has answered.</p>
      </Card>
    );
  }
  const { current, previous } = costs;
  // A ratio of two costs per mile is the same ratio per km.
  const change = changeText(relativeChange(current.costPerMileCents, previous.costPerMileCents));
  return (
    <Card title="Costs">
      <Figure to="/reports" label="This month" value={money(current.totalCents)} />
      <Figure to="/reports" label={`Cost per ${per}`} value={perDistance(current.costPerMileCents, units)} />
      <Figure to="/reports" label="Last month" value={money(previous.totalCents)} />
      <Figure to="/reports" label={`Last month per ${per}`} value={perDistance(previous.costPerMileCents, units)} />
      <p className="overview-note muted">
        This month: <Link to="/fuel">fuel {money(current.fuelCents)}</Link> · service {money(current.serviceCents)} ·
        <Link to="/fuel">expenses {money(current.expenseCents)}</Link> · {distanceText(current.distanceMiles, units)}
        {change ? ` · per ${per} ${change}` : ""}
      </p>
    </Card>
  );
}
