import { alertKey, alertRuleKey, type AlertRuleConfig } from "../../shared/alert-rules";
import { alertReadsKey, encodeAlert, encodeAlertReads } from "../../shared/alerts";
import { encodePlace, placeKey } from "../../shared/places";
import type { Changes } from "./changes";
import type { Add } from "./pull";

/** Places, alert rules, alerts and members' read state in a pull answer (docs/decisions/0019). */
export function addPlacesAndAlerts(changes: Changes, add: Add) {
  add(changes.placeRows, (r) => placeKey(r.id), (r) => encodePlace(r));
  add(changes.ruleRows, (r) => alertRuleKey(r.id), (r): AlertRuleConfig => r.config);
  add(changes.alertRows, (r) => alertKey(r.id), (r) => encodeAlert(r));
  add(changes.readRows, (r) => alertReadsKey(r.userId), (r) => encodeAlertReads(r));
}
