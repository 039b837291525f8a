import { useParams } from "@remix-run/react";
import { useCallback } from "react";
import type { SyncedServiceEntry } from "../../shared/sync/maintenance-sync";
import type { ServiceEntry, ServiceSchedule } from "../../shared/maintenance/service";
import { intervalText, money, nextDueText, statusLabel } from "../maintenance/format";
import { DeleteEntry, ScheduleActions } from "../maintenance/service-actions";
import { AddScheduleForm, LogServiceForm } from "../maintenance/service-forms";
import { DueScheduleWorkOrder } from "../work-orders/new-work-order";
import { useOlder, withOlder } from "../maintenance/use-older";
import { ShowOlder } from "../maintenance/show-older";
import { useCan } from "../session/session";
import { useStoreStatus } from "../store";
import { useServiceEntries, useVehicleSchedules } from "../store/maintenance";

type Row = Pick<SyncedServiceEntry, "id" | "date" | "description" | "vendor" | "odometerMiles" | "costCents">;
const entriesOf = (body: unknown) => (body as { entries: ServiceEntry[] }).entries;

/**
 * A vehicle's Service tab (issue 32): its schedules with their status (due soon within 10 % of
 * the interval, then overdue), its service history with the cost, "Log service" for members and
 * "Add schedule", each schedule's "Edit" and "Delete" and each entry's "Delete" for owners and
 * admins. Read from the synced store (offline too, docs/decisions/0033):
 * the last 90 days of history; "Show older" reads the rest from the server.
 */
export default function VehicleService() {
  const { vehicleId = "" } = useParams();
  const list = useVehicleSchedules(vehicleId);
  const synced = useServiceEntries(vehicleId);
  const older = useOlder<Row>(`service-entries?vehicleId=${encodeURIComponent(vehicleId)}`, useCallback(entriesOf, []));
  const canLog = useCan("fleet.edit");
  const canManage = useCan("maintenance.manage");
  if (!vehicleId) return null;
  const reload = () => void (older.rows ? older.load() : undefined);
  return (
    <div className="vehicle-service">
      <Schedules list={list} canManage={canManage} />
      <ServiceHistory history={withOlder<Row>(synced, older.rows)} older={older} onDelete={canManage ? reload : null} />
      <div className="maintenance-forms">
        {canLog ? <LogServiceForm vehicleId={vehicleId} schedules={list} done={reload} /> : null}
        {canManage ? <AddScheduleForm vehicleId={vehicleId} done={reload} /> : null}
      </div>
    </div>
  );
}

function Schedules({ list, canManage }: { list: ServiceSchedule[]; canManage: boolean }) {
  const { pulled } = useStoreStatus();
  return (
    <section aria-label="Service schedules">
      <h2>Schedules</h2>
      {pulled && !list.length ? <p className="muted">No schedules yet.</p> : null}
      <ul className="maintenance-list">
        {list.map((s) => (
          <li key={s.id} className="maintenance-row">
            <span className={`status-pill ${s.status}`}>{statusLabel(s)}</span>
            <strong>{s.name}</strong>
            <span className="muted">
              {intervalText(s)} · {nextDueText(s)}
            </span>
            <DueScheduleWorkOrder schedule={s} />
            {canManage ? <ScheduleActions schedule={s} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The vehicle's service history with its cost: the synced 90 days, then the rest on request.
 * `onDelete` (owners and admins) offers "Delete" on each entry and is told when one went.
 */
function ServiceHistory({
  history,
  older,
  onDelete,
}: {
  history: Row[];
  older: ReturnType<typeof useOlder<Row>>;
  onDelete: (() => void) | null;
}) {
  const { pulled } = useStoreStatus();
  const total = history.reduce((sum, e) => sum + (e.costCents ?? 0), 0);
  return (
    <section aria-label="Service history">
      <h2>History</h2>
      {pulled && !history.length ? <p className="muted">No service logged in the last 90 days.</p> : null}
      {history.length ? (
        <p className="muted">
          Total cost{older.rows ? "" : " (last 90 days)"}: {money(total)}
        </p>
      ) : null}
      <ul className="maintenance-list">
        {history.map((e) => (
          <li key={e.id} className="maintenance-row">
            <strong>{e.date}</strong>
            <span>{e.description ?? "Service"}</span>
            <span className="muted">
              {[
                e.vendor,
                e.odometerMiles !== null ? `${e.odometerMiles.toLocaleString("en-US")} mi` : null,
                money(e.costCents),
              ]
                .filter(Boolean)
                .join(" · ")}
            </span>
            {onDelete ? <DeleteEntry id={e.id} date={e.date} deleted={onDelete} /> : null}
          </li>
        ))}
      </ul>
      <ShowOlder older={older} />
    </section>
  );
}
