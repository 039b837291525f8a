import type { WorkspaceUnits } from "../../shared/units/units";
import { distanceWord } from "../units/units-text";
import { BarsFigure, TrendFigure } from "./chart-figure";
import { centsTick, dollarsText, dollarsTick, economyText, perDistanceText, tenthsTick } from "./chart-format";
import { costBars, costPerDistanceTrend, economyTrend, type CostPoint } from "./cost-series";

/**
 * Months of cost as the cost report and the Overview both draw them (docs/decisions/0080): cost by
 * kind as stacked bars, then cost per mile (or km) and fuel economy as trends.
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
      <TrendFigure
        caption={units === "metric" ? "Fuel economy (L/100 km)" : "Fuel economy (mpg)"}
        series={economyTrend(points, units)}
        format={economyText(units)}
        tick={tenthsTick}
      />
    </>
  );
}
