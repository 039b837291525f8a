import type { AlertRule } from "../../shared/alerts/alert-rules";
import type { AcceptedFix, FleetModule, FlushRow, Replay } from "../fold/fold";
import { emptyPlaceState, evaluatePlaces, type PlaceState } from "../places/evaluate";
import type { PlaceIndex } from "../places/place-index";
import { emptyAlertState, evaluateAlerts, type AlertOutput, type AlertState } from "./evaluate";

/**
 * Places and alerts as a module of the fleet fold (docs/decisions/0016, 0019): per accepted fix,
 * the place evaluator's events feed the alert rules; alerts become rows of the `alerts` table
 * (synced to the Inbox) and are handed to `deliver` once, when they open.
 */
export const PLACES_ALERTS_MODULE = "placesAlerts";

/** What a workspace watches: its places behind their index, its alert rules, and its vehicles' tanks. */
export interface WorkspaceWatch {
  index: PlaceIndex;
  rules: AlertRule[];
  /** Litres, by vehicle id, of the vehicles whose tank is set (a fuel_drop rule's minLitres needs it). */
  tanks?: Readonly<Record<string, number>>;
}

export interface PlacesAlertsState {
  places: PlaceState;
  alerts: AlertState;
}

export function placesAlertsModule(
  watchOf: (workspaceId: string) => WorkspaceWatch | undefined,
  deliver?: (alerts: AlertOutput[]) => void,
): FleetModule<PlacesAlertsState> {
  return {
    name: PLACES_ALERTS_MODULE,
    step(state, accepted: AcceptedFix) {
      const watch = watchOf(accepted.workspaceId);
      const current = state ?? { places: emptyPlaceState(), alerts: emptyAlertState() };
      // a workspace that watches nothing pays nothing (and keeps no state)
      if (!watch || (watch.rules.length === 0 && watch.index.size === 0)) return { state: current };
      const { fix, vehicleId, workspaceId } = accepted;
      const placed = evaluatePlaces(current.places, fix, watch.index);
      const fuel = { events: accepted.fuelEvents ?? [], tankLitres: watch.tanks?.[vehicleId] ?? null };
      const evaluated = evaluateAlerts(current.alerts, vehicleId, fix, placed.events, watch.rules, fuel);
      const alerted = accepted.replay ? renamed(evaluated, accepted.replay) : evaluated;
      const fresh = alerted.alerts.filter((a) => a.kind === "open" && !accepted.replay?.given(a.alert.id));
      if (fresh.length && deliver) deliver(fresh);
      const rows: FlushRow[] = alerted.alerts.map(({ kind, alert }) => {
        const row = { ...alert, workspaceId };
        if (kind !== "open") return { table: "alerts", row };
        // Should a re-fold after a late report no longer open it, it is withdrawn from the Inbox
        // (what was sent about it cannot be unsent; docs/decisions/0037).
        return { table: "alerts", row, opens: { key: alertKey(alert), id: alert.id, void: { ...row, deleted: true } } };
      });
      return { state: { places: placed.state, alerts: alerted.state }, rows };
    },
  };
}

/** What one alert is about, for a re-fold to give it the id the superseded fold gave (docs/decisions/0037). */
export const alertKey = (alert: { ruleId: string; placeId: string | null }) =>
  `alert:${alert.ruleId}:${alert.placeId ?? ""}`;

/**
 * A re-fold's alerts under the ids the folds it supersedes gave them: an alert of the same rule
 * (and place) the re-fold opens a few seconds earlier or later is the same alert (its row is
 * updated; the outbox trigger fires on insert only, so it is not delivered again).
 */
function renamed(out: { state: AlertState; alerts: AlertOutput[] }, replay: Replay) {
  let episodes = out.state.episodes;
  const alerts = out.alerts.map((o) => {
    if (o.kind !== "open") return o;
    const id = replay.reuse(alertKey(o.alert), o.alert.id);
    if (id === o.alert.id) return o;
    const rule = episodes[o.alert.ruleId];
    if (rule?.alertId === o.alert.id) episodes = { ...episodes, [o.alert.ruleId]: { ...rule, alertId: id } };
    return { ...o, alert: { ...o.alert, id } };
  });
  return { state: { ...out.state, episodes }, alerts };
}
