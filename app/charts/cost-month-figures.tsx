import type { WorkspaceUnits } from "../../shared/units/units";
import { distanceWord } from "../units/units-text";
import { BarsFigure, TrendFigure } from "./chart-figure";
import { centsTick, dollarsText, dollarsTick, perDistanceText } from "./chart-format";
import { costBars, costPerDistanceTrend, type CostPoint } from "./cost-series";

/**
 * Months of cost as the cost report and the Overview both draw them (docs/decisions/0080): cost by
 * kind as stacked bars, then cost per mile (or km) as a trend.
 */
export function CostMonthFigures({ points, units }: { points: readonly CostPoint[]; units: WorkspaceUnits }) {
  return (
    <>
      <BarsFigure caption="Cost by month" series={costBars(points)} format={dollarsText} tick={dollarsTick} />
      <TrendFigure
        caption={`Cost per ${distanceWord(units)}`}
        series={costPerDistanceTrend(points, units)}
        format={perDistanceText(units)}
        tick={centsTick}
      />
    </>
  );
}
