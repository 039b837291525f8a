import { useMemo } from "react";
import type { MonthCost } from "../../shared/overview/month-cost";
import type { WorkspaceUnits } from "../../shared/units/units";
import { BarsFigure, TrendFigure } from "../charts/chart-figure";
import { costBars, costPerDistanceTrend, costPointOfMonth } from "../charts/cost-series";
import { centsTick, dollarsText, dollarsTick, perDistanceText } from "../charts/chart-format";
import { distanceWord } from "../units/units-text";

/**
 * Last month and this month so far as the Costs card counts them (docs/decisions/0080): cost by
 * kind as stacked bars, and cost per mile (or km). The card's months carry no fuel economy, so
 * none is drawn here; the cost report's months do.
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
        <BarsFigure caption="Cost by month" series={costBars(points)} format={dollarsText} tick={dollarsTick} />
        <TrendFigure
          caption={`Cost per ${distanceWord(units)}`}
          series={costPerDistanceTrend(points, units)}
          format={perDistanceText(units)}
          tick={centsTick}
        />
      </div>
    </section>
  );
}
