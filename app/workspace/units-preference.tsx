import type { WorkspaceUnits } from "../../shared/units/units";
import { setWorkspaceUnits, useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { PreferenceCard } from "./preference-card";

const labels: Record<WorkspaceUnits, string> = {
  us: "US: miles, gallons, mpg",
  metric: "Metric: km, litres, L/100 km",
};

/** Preferences → Units (docs/decisions/0060): what fuel volumes and economy are shown in; owners and admins set it. */
export function UnitsPreference() {
  return (
    <PreferenceCard
      id="workspace-units"
      label="Units"
      field="units"
      current={useWorkspaceUnits()}
      labels={labels}
      onSaved={(workspaceId, saved) => setWorkspaceUnits(workspaceId, saved.units)}
    >
      Fuel volumes and economy on the Fuel pages are shown in these.
    </PreferenceCard>
  );
}
