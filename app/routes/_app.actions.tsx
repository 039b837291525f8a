import { Link } from "@remix-run/react";
import { nextDueText, statusLabel } from "../maintenance/format";
import type { MyActionsBody } from "../maintenance/my-actions-body";
import { useApi } from "../maintenance/use-api";
import { useVehicles } from "../store";

/**
 * My actions (issue 32): what is the signed-in member's to do: open issues assigned to them,
 * service due soon or overdue, vehicles that drove today without an inspection, unread alerts.
 */
export default function ActionsPage() {
  const { data, failed } = useApi<MyActionsBody>("my-actions");
  const names = new Map(useVehicles().map((v) => [v.id, v.name]));
  const nothing = data && !data.issues.length && !data.service.length && !data.inspections.length && !data.unreadAlerts;
  return (
    <section className="page actions">
      <header className="page-header">
        <h1>My actions</h1>
      </header>
      {failed && !data ? <p className="muted">My actions are shown when you are online.</p> : null}
      {nothing ? <p className="muted">Nothing to do. Well done.</p> : null}
      {data?.issues.length ? (
        <section aria-label="Issues assigned to me">
          <h2>Issues assigned to me</h2>
          <ul className="maintenance-list">
            {data.issues.map((i) => (
              <li key={i.id} className="maintenance-row">
                <Link to={`/issues/${i.id}`}>{i.title}</Link>
                <span className="muted">
                  {names.get(i.vehicleId) ?? "Vehicle"} · {i.priority} · {i.status.replace("_", " ")}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {data?.service.length ? <ServiceDueList service={data.service} names={names} /> : null}
      {data?.inspections.length ? (
        <section aria-label="Inspections due today">
          <h2>Inspections due today</h2>
          <ul className="maintenance-list">
            {data.inspections.map((m) => (
              <li key={m.vehicleId} className="maintenance-row">
                <Link to={`/vehicles/${m.vehicleId}/inspections`}>{m.vehicleName}</Link>
                <span className="muted">drove today, not inspected</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {data?.unreadAlerts ? (
        <p>
          <Link to="/inbox">{data.unreadAlerts} unread alert{data.unreadAlerts > 1 ? "s" : ""}</Link>
        </p>
      ) : null}
    </section>
  );
}

/** The fleet-wide "service due" list: overdue first. */
export function ServiceDueList({ service, names }: { service: MyActionsBody["service"]; names: Map<string, string> }) {
  return (
    <section aria-label="Service due">
      <h2>Service due</h2>
      <ul className="maintenance-list">
        {service.map((s) => (
          <li key={s.id} className="maintenance-row">
            <span className={`status-pill ${s.status}`}>{statusLabel(s)}</span>
            <Link to={`/vehicles/${s.vehicleId}/service`}>
              {names.get(s.vehicleId) ?? "Vehicle"}: {s.name}
            </Link>
            <span className="muted">{nextDueText(s)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
