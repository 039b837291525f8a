import { fuelChangeLitres } from "../../shared/fleet/vehicle-event";
import type { Alert, AlertRule } from "../../shared/alerts/alert-rules";
import type { FuelEventChange } from "../fuel/level-watch";

/**
 * The `fuel_drop` rule (docs/decisions/0050): one alert per fuel drop the fuel watch found
 * (domain/fuel/level-watch.ts), dated when the drop began, at the place the vehicle stood. A rule
 * with `minLitres` waits until the drop has lost that much (it may grow over a few readings), and
 * needs the vehicle's tank to know it; without `minLitres` every drop raises one. While the drop
 * goes on, its alert's peak (litres lost, null without a tank) grows; its end comes with the drop's.
 */
export interface FuelSeen {
  events: readonly FuelEventChange[];
  /** The vehicle's tank, litres; null when not set. */
  tankLitres: number | null;
}

/** The episode a rule keeps for the drop it alerted about: its start and alert id. */
export interface FuelDropEpisode {
  start: number;
  alertId?: string;
}

export type FuelDropRule = AlertRule & { type: "fuel_drop" };

/** The rule's step on one fix's fuel events: the alerts it opens or updates, and its episode after. */
export function fuelDropAlerts(
  rule: FuelDropRule,
  vehicleId: string,
  previous: FuelDropEpisode | undefined,
  fuel: FuelSeen,
  alertIdOf: (at: number) => string,
): { episode: FuelDropEpisode | undefined; alerts: { kind: "open" | "close"; alert: Alert }[] } {
  let episode = previous;
  const alerts: { kind: "open" | "close"; alert: Alert }[] = [];
  for (const drop of fuel.events) {
    if (drop.type !== "FUEL_DROP") continue;
    const litres = fuelChangeLitres({ fuelFrom: drop.from, fuelTo: drop.to }, fuel.tankLitres);
    const known = episode?.start === drop.start ? episode : undefined;
    const alert: Alert = {
      id: known?.alertId ?? alertIdOf(drop.start),
      type: "fuel_drop",
      ruleId: rule.id,
      vehicleId,
      placeId: null,
      at: drop.start,
      endAt: drop.end,
      latitude: drop.latitude,
      longitude: drop.longitude,
      peak: litres,
    };
    // Already alerted about: the same alert with its new peak (and its end), not a second one.
    if (known?.alertId) {
      alerts.push({ kind: "close", alert });
      continue;
    }
    const enough = rule.minLitres === undefined || (litres !== null && litres >= rule.minLitres);
    episode = enough ? { start: drop.start, alertId: alert.id } : { start: drop.start };
    if (enough) alerts.push({ kind: "open", alert });
  }
  return { episode, alerts };
}
