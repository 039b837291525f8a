import type { AlertRule } from "../../shared/alert-rules";
import type { AcceptedFix, FleetModule, FlushRow } from "../fold/fold";
import { emptyPlaceState, evaluatePlaces, type PlaceState } from "../places/evaluate";
import type { PlaceIndex } from "../places/place-index";
import { emptyAlertState, evaluateAlerts, type AlertOutput, type AlertState } from "./evaluate";

/**
 * Places and alerts as a module of the fleet fold (docs/decisions/0016, 0019): per accepted fix,
 * the place evaluator's events feed the alert rules; alerts become rows of the `alerts` table
 * (synced to the Inbox) and are handed to `deliver` once, when they open.
 */
export const PLACES_ALERTS_MODULE = "placesAlerts";

/** What a workspace watches: its places behind their index, and its alert rules. */
export interface WorkspaceWatch {
  index: PlaceIndex;
  rules: AlertRule[];
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
      const alerted = evaluateAlerts(current.alerts, vehicleId, fix, placed.events, watch.rules);
      if (alerted.alerts.length && deliver) deliver(alerted.alerts.filter((a) => a.kind === "open"));
      const rows: FlushRow[] = alerted.alerts.map(({ alert }) => ({ table: "alerts", row: { ...alert, workspaceId } }));
      return { state: { places: placed.state, alerts: alerted.state }, rows };
    },
  };
}
