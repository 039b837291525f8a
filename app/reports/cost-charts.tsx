import { useMemo } from "react";
import type { CostReportResponse } from "../../shared/costs/cost-report";
import { BarsFigure } from "../charts/chart-figure";
import { costBars, costPointOfRow } from "../charts/cost-series";
import { CostMonthFigures } from "../charts/cost-month-figures";
import { dollarsText, dollarsTick } from "../charts/chart-format";
import { useWorkspaceUnits } from "./use-workspace-time-zone";

/**
 * The cost report's charts, over the rows its table shows below them (docs/decisions/0080): per
 * month, cost by kind as stacked bars and cost per mile (or km) and economy as trends; per vehicle,
 * cost by kind per vehicle, one bar each (a trend across vehicles would mean nothing).
 */
export function CostCharts({ answer }: { answer: CostReportResponse }) {
  const units = useWorkspaceUnits();
  const points = useMemo(() => answer.rows.map(costPointOfRow), [answer]);
  if (!points.length) return null;
  if (answer.by === "vehicle")
    return (
      <BarsFigure
        caption="Cost by vehicle"
        series={costBars(points)}
        format={dollarsText}
        tick={dollarsTick}
        horizontal
        height={Math.min(640, 60 + 28 * points.length)}
      />
    );
  return (
    <div className="chart-row">
      <CostMonthFigures points={points} units={units} />
    </div>
  );
}
