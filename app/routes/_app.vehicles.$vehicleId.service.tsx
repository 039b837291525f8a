import { useParams } from "@remix-run/react";
import type { ServiceEntry, ServiceSchedule } from "../../shared/service";
import { intervalText, money, nextDueText, statusLabel } from "../maintenance/format";
import { AddScheduleForm, LogServiceForm } from "../maintenance/service-forms";
import { useApi } from "../maintenance/use-api";
import { useCan } from "../session/session";

/**
 * A vehicle's Service tab (issue 32): its schedules with their status (due soon within 10 % of
 * the interval, then overdue), its service history with the cost, "Log service" for members and
 * "Add schedule" for owners and admins. Read from the REST API when the tab opens.
 */
export default function VehicleService() {
  const { vehicleId } = useParams();
  const schedules = useApi<{ schedules: ServiceSchedule[] }>(vehicleId ? `service-schedules?vehicleId=${encodeURIComponent(vehicleId)}` : null);
  const entries = useApi<{ entries: ServiceEntry[] }>(vehicleId ? `service-entries?vehicleId=${encodeURIComponent(vehicleId)}` : null);
  const canLog = useCan("fleet.edit");
  const canManage = useCan("maintenance.manage");
  if (!vehicleId) return null;
  const reload = () => {
    schedules.reload();
    entries.reload();
  };
  const list = schedules.data?.schedules ?? [];
  const history = entries.data?.entries ?? [];
  const total = history.reduce((sum, e) => sum + (e.costCents ?? 0), 0);
  return (
    <div className="vehicle-service">
      {schedules.failed && !schedules.data ? <p className="muted">Service is shown when you are online.</p> : null}
      <section aria-label="Service schedules">
        <h2>Schedules</h2>
        {schedules.data && !list.length ? <p className="muted">No schedules yet.</p> : null}
        <ul className="maintenance-list">
          {list.map((s) => (
            <li key={s.id} className="maintenance-row">
              <span className={`status-pill ${s.status}`}>{statusLabel(s)}</span>
              <strong>{s.name}</strong>
              <span className="muted">
                {intervalText(s)} · {nextDueText(s)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Service history">
        <h2>History</h2>
        {entries.data && !history.length ? <p className="muted">No service logged yet.</p> : null}
        {history.length ? <p className="muted">Total cost: {money(total)}</p> : null}
        <ul className="maintenance-list">
          {history.map((e) => (
            <li key={e.id} className="maintenance-row">
              <strong>{e.date}</strong>
              <span>{e.description ?? "Service"}</span>
              <span className="muted">
                {[e.vendor, e.odometerMiles !== null ? `${e.odometerMiles.toLocaleString("en-US")} mi` : null, money(e.costCents)].filter(Boolean).join(" · ")}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <div className="maintenance-forms">
        {canLog ? <LogServiceForm vehicleId={vehicleId} schedules={list} done={reload} /> : null}
        {canManage ? <AddScheduleForm vehicleId={vehicleId} done={reload} /> : null}
      </div>
    </div>
  );
}
