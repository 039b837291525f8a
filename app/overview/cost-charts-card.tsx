import { useMemo } from "react";
import type { MonthCost } from "../../shared/overview/month-cost";
import type { WorkspaceUnits } from "../../shared/units/units";
import { CostMonthFigures } from "../charts/cost-month-figures";
import { costPointOfMonth } from "../charts/cost-series";

/**
 * Last month and this month so far as the Costs card counts them (docs/decisions/0080): cost by
 * kind as stacked bars, cost per mile (or km) and fuel economy, each the cost report's figure.
 */
export function CostChartsCard({
  costs,
  units,
}: {
  costs: { current: MonthCost; previous: MonthCost };
  units: WorkspaceUnits;
}) {
  const points = useMemo(() => [costs.previous, costs.current].map(costPointOfMonth), [costs]);
  return (
    <section className="card overview-card overview-charts" aria-label="This month against last">
      <h2>This month against last</h2>
      <div className="chart-row">
        <CostMonthFigures points={points} units={units} />
      </div>
    </section>
  );
}
