import { useNavigate } from "@remix-run/react";
import { useMemo } from "react";
import { toast } from "sonner";
import { isNotice, type Alert } from "../../shared/alerts/alert-rules";
import { isRead } from "../../shared/alerts/alerts";
import { AlertRulesPanel } from "../alerts/alert-rules-panel";
import { AssignedToMe } from "../issues/assigned-to-me";
import { describeAlert, groupByDay } from "../alerts/format";
import { http } from "../lib/http";
import { useClientStore, useVehicles } from "../store";
import { useAlertReads, useAlerts, usePlaces } from "../store/places-alerts";
import { timeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useNow } from "../vehicles/use-now";
import type { VehicleEvent } from "../../shared/fleet/vehicle-event";

/**
 * The Inbox (issue 21): alerts as they arrive (synced), newest first, grouped by day like the
 * timeline; unread ones in bold. A click marks it read and opens the vehicle on the map, on the
 * trip it happened in when that trip is still in its timeline.
 */
export default function InboxPage() {
  const alerts = useAlerts();
  const reads = useAlertReads();
  const now = useNow(60_000);
  // Days and times on the workspace's clock, as every other page's (docs/decisions/0079).
  const clock = useWorkspaceClock();
  const groups = useMemo(() => groupByDay(alerts, now, clock), [alerts, now, clock]);
  const names = useNames();
  const open = useOpenAlert();
  const markAll = () =>
    http.post("alerts/read", { json: { all: true } }).catch(() => toast.error("Could not mark the alerts read"));
  return (
    <section className="page inbox">
      <header className="page-header">
        <h1>Inbox</h1>
        <button
          type="button"
          className="button"
          onClick={() => void markAll()}
          disabled={alerts.every((a) => isRead(a, reads))}
        >
          Mark all read
        </button>
      </header>
      <AssignedToMe />
      {alerts.length === 0 ? (
        <p className="muted">No alerts yet. Add a rule below and they appear here as they happen.</p>
      ) : null}
      {groups.map((group) => (
        <div key={group.day} className="inbox-day">
          <h2>{group.day}</h2>
          <ul className="inbox-list">
            {group.alerts.map((alert) => {
              const read = isRead(alert, reads);
              return (
                <li key={alert.id}>
                  <button
                    type="button"
                    className={`inbox-row${read ? "" : " unread"}`}
                    onClick={() => void open(alert, read)}
                    aria-label={`${read ? "" : "Unread: "}${names.vehicle(alert.vehicleId)}, ${describeAlert(alert, names.place(alert.placeId))}`}
                  >
                    <span className="inbox-time">{timeText(alert.at, clock)}</span>
                    <span className="inbox-vehicle">{names.vehicle(alert.vehicleId)}</span>
                    <span className="inbox-what">{describeAlert(alert, names.place(alert.placeId))}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      <AlertRulesPanel />
    </section>
  );
}

function useNames() {
  const vehicles = useVehicles();
  const places = usePlaces();
  return useMemo(() => {
    const vehicleNames = new Map(vehicles.map((v) => [v.id, v.name]));
    const placeNames = new Map(places.map((p) => [p.id, p.name]));
    return {
      vehicle: (id: string) => vehicleNames.get(id) ?? "A removed vehicle",
      place: (id: string | null) => (id ? placeNames.get(id) : undefined),
    };
  }, [vehicles, places]);
}

/** Marks the alert read and shows its vehicle on the map, replaying the trip it happened in. */
function useOpenAlert() {
  const navigate = useNavigate();
  const store = useClientStore();
  return async (alert: Alert, read: boolean) => {
    if (!read) void http.post("alerts/read", { json: { ids: [alert.id] } }).catch(() => undefined);
    // A service notice opens the vehicle's Service tab, where the service is logged.
    if (isNotice(alert.type)) return navigate(`/vehicles/${alert.vehicleId}/service`);
    const events = store.eventsOf<VehicleEvent>(alert.vehicleId);
    const during = events.find((e) => e.startTime <= alert.at && (e.endTime === null || alert.at <= e.endTime));
    const params = new URLSearchParams({ vehicleId: alert.vehicleId });
    if (during) params.set("event", during.id);
    navigate(`/map?${params}`);
  };
}
