import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from "chart.js";
import { axisTicks, baseOptions, useChart } from "./chart-setup";
import type { BarSeries } from "./series";

// Only what a stacked bar chart needs, so the rest of Chart.js stays out of the bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export interface StackedBarsProps {
  series: BarSeries;
  /** the chart in words: the canvas's aria-label */
  summary: string;
  /** a value in a tooltip; `tick` on the value axis (defaults to `format`) */
  format: (value: number) => string;
  tick?: (value: number) => string;
  /** counts: the value axis ticks whole numbers only */
  whole?: boolean;
  /** bars along the vertical axis, their labels (vehicle names) readable on a phone */
  horizontal?: boolean;
  height: number;
}

/** Stacked bars (lazy-loaded by chart-figure.tsx): cost by month and kind, jobs on time by day. */
export default function StackedBars(props: StackedBarsProps) {
  const { series, summary, horizontal = false, height } = props;
  const canvas = useChart(
    () => {
      const value = {
        stacked: true,
        beginAtZero: true,
        ticks: {
          ...axisTicks,
          ...(props.whole && { precision: 0 }),
          callback: (v: number | string) => (props.tick ?? props.format)(Number(v)),
        },
      };
      const category = { stacked: true, grid: { display: false }, ticks: axisTicks };
      return {
        type: "bar",
        data: {
          labels: series.labels,
          datasets: series.sets.map((set) => ({
            label: set.label,
            data: set.values,
            backgroundColor: set.colour,
            maxBarThickness: 48,
          })),
        },
        options: {
          ...baseOptions(),
          indexAxis: horizontal ? "y" : "x",
          scales: horizontal ? { x: value, y: category } : { x: category, y: value },
          plugins: {
            tooltip: {
              intersect: false,
              mode: "index",
              callbacks: { label: (item) => `${item.dataset.label}: ${props.format(Number(item.raw))}` },
            },
          },
        },
      };
    },
    JSON.stringify([series, horizontal, props.whole]),
  );
  return (
    <div className="chart-box" style={{ height }}>
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
