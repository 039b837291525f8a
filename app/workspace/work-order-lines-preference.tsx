import { setWorkOrderLinesRequired, useWorkOrderLinesRequired } from "../reports/use-workspace-time-zone";
import { PreferenceCard } from "./preference-card";

type Choice = "off" | "on";
const labels: Record<Choice, string> = {
  off: "Optional: an order may be completed with no lines",
  on: "Required: an order needs a labour or part line to be completed",
};

/** Preferences → Work order lines (docs/decisions/0092): whether completing an order needs a line; owners and admins set it. */
export function WorkOrderLinesPreference() {
  return (
    <PreferenceCard<Choice>
      id="workspace-work-order-lines"
      label="Work order lines"
      field="workOrderLinesRequired"
      current={useWorkOrderLinesRequired() ? "on" : "off"}
      labels={labels}
      sent={(choice) => choice === "on"}
      onSaved={(workspaceId, saved) => setWorkOrderLinesRequired(workspaceId, saved.workOrderLinesRequired)}
    >
      When required, a work order with no labour or part line cannot be completed, so every completed order records what
      the work cost.
    </PreferenceCard>
  );
}
