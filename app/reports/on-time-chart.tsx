import { useMemo } from "react";
import type { JobsReportDay } from "../../shared/reports/reports";
import { BarsFigure } from "../charts/chart-figure";
import { onTimeBars } from "../charts/on-time-series";

const jobsText = (n: number) => `${n} ${n === 1 ? "job" : "jobs"}`;

/** The on-time report's chart: per day, jobs on time, late and skipped, from the answer's `days` (its rows' rule). */
export function OnTimeChart({ days }: { days: JobsReportDay[] }) {
  const series = useMemo(() => onTimeBars(days), [days]);
  if (!days.length) return null;
  return <BarsFigure caption="Jobs on time by day" series={series} format={jobsText} tick={String} whole />;
}
