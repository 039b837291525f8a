import { Link } from "@remix-run/react";
import { priorityLabels, statusLabels } from "../../shared/maintenance/issues";
import type { ServiceSchedule } from "../../shared/maintenance/service";
import { nextDueText, statusLabel } from "../maintenance/format";
import { actionCount, useMyActions } from "../maintenance/use-my-actions";
import { useStoreStatus, useVehicles } from "../store";
import { useShownFirst } from "../components/use-shown-first";
import { RenewalsDue } from "../costs/renewals-due";
import { DueScheduleWorkOrder } from "../work-orders/new-work-order";

/**
 * My actions (issue 32): what is the signed-in member's to do: open issues assigned to them,
 * service due soon or overdue, vehicles that drove today without an inspection, renewals due,
 * unread alerts.
 * From the synced store: offline too, and current the moment a change is pulled (docs/decisions/0033).
 */
export default function ActionsPage() {
  const actions = useMyActions();
  const { pulled } = useStoreStatus();
  const names = new Map(useVehicles().map((v) => [v.id, v.name]));
  return (
    <section className="page actions">
      <header className="page-header">
        <h1>My actions</h1>
      </header>
      {pulled && !actionCount(actions) ? <p className="muted">Nothing to do. Well done.</p> : null}
      {actions.issues.length ? <AssignedIssues issues={actions.issues} names={names} /> : null}
      {actions.service.length ? <ServiceDueList service={actions.service} names={names} /> : null}
      {actions.inspections.length ? <InspectionsDue vehicles={actions.inspections} /> : null}
      {actions.renewals.length ? <RenewalsDue renewals={actions.renewals} names={names} /> : null}
      {actions.unreadAlerts ? (
        <p>
          <Link to="/inbox">
            {actions.unreadAlerts} unread alert{actions.unreadAlerts > 1 ? "s" : ""}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

type Actions = ReturnType<typeof useMyActions>;

function AssignedIssues({ issues, names }: { issues: Actions["issues"]; names: Map<string, string> }) {
  const { shown, more } = useShownFirst(issues);
  return (
    <section aria-label="Issues assigned to me">
      <h2>Issues assigned to me</h2>
      <ul className="maintenance-list">
        {shown.map((i) => (
          <li key={i.id} className="maintenance-row">
            <Link to={`/issues/${i.id}`}>{i.title}</Link>
            <span className="muted">
              {names.get(i.vehicleId) ?? "Vehicle"} · {priorityLabels[i.priority]} · {statusLabels[i.status]}
            </span>
          </li>
        ))}
      </ul>
      {more}
    </section>
  );
}

/** The fleet-wide "service due" list: overdue first. */
function ServiceDueList({ service, names }: { service: ServiceSchedule[]; names: Map<string, string> }) {
  const { shown, more } = useShownFirst(service);
  return (
    <section aria-label="Service due">
      <h2>Service due</h2>
      <ul className="maintenance-list">
        {shown.map((s) => (
          <li key={s.id} className="maintenance-row">
            <span className={`status-pill ${s.status}`}>{statusLabel(s)}</span>
            <Link to={`/vehicles/${s.vehicleId}/service`}>
              {names.get(s.vehicleId) ?? "Vehicle"}: {s.name}
            </Link>
            <span className="muted">{nextDueText(s)}</span>
            <DueScheduleWorkOrder schedule={s} vehicleName={names.get(s.vehicleId)} />
          </li>
        ))}
      </ul>
      {more}
    </section>
  );
}

/** Vehicles that drove today without today's inspection. */
function InspectionsDue({ vehicles }: { vehicles: Actions["inspections"] }) {
  const { shown, more } = useShownFirst(vehicles);
  return (
    <section aria-label="Inspections due today">
      <h2>Inspections due today</h2>
      <ul className="maintenance-list">
        {shown.map((v) => (
          <li key={v.id} className="maintenance-row">
            <Link to={`/vehicles/${v.id}/inspections`}>{v.name}</Link>
            <span className="muted">drove today, not inspected</span>
          </li>
        ))}
      </ul>
      {more}
    </section>
  );
}
