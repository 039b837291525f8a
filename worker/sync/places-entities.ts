import type { alertReads, alertRules, alerts, places } from "../../db/schema";
import { alertKey, alertRuleKey, type AlertRuleConfig } from "../../shared/alerts/alert-rules";
import { alertReadsKey, encodeAlert, encodeAlertReads } from "../../shared/alerts/alerts";
import { encodePlace, placeKey } from "../../shared/places/places";
import { webhookHostOnly } from "../alerts/webhook-target";
import type { Add, Rows } from "./add-rows";

/**
 * Places, alert rules, alerts and members' read state in a pull answer (docs/decisions/0019). A
 * rule's webhook URL is a secret (Slack's, Zapier's): roles that cannot edit rules get its host only.
 */
export function addPlacesAndAlerts(
  changes: {
    placeRows: Rows<typeof places>;
    ruleRows: Rows<typeof alertRules>;
    alertRows: Rows<typeof alerts>;
    readRows: Rows<typeof alertReads>;
  },
  add: Add,
  showWebhooks: boolean,
) {
  add(
    changes.placeRows,
    (r) => placeKey(r.id),
    (r) => encodePlace(r),
  );
  add(
    changes.ruleRows,
    (r) => alertRuleKey(r.id),
    (r): AlertRuleConfig => (showWebhooks ? r.config : redactWebhook(r.config)),
  );
  add(
    changes.alertRows,
    (r) => alertKey(r.id),
    (r) => encodeAlert(r),
  );
  add(
    changes.readRows,
    (r) => alertReadsKey(r.userId),
    (r) => encodeAlertReads(r),
  );
}

/** The rule as a role that cannot edit rules sees it: the webhook's host only. */
export function redactWebhook<R extends AlertRuleConfig>(rule: R): R {
  const url = rule.notify?.webhookUrl;
  return url ? { ...rule, notify: { ...rule.notify!, webhookUrl: webhookHostOnly(url) } } : rule;
}
