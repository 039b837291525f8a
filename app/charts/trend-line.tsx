import { CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from "chart.js";
import { axisTicks, baseOptions, useChart } from "./chart-setup";
import type { TrendSeries } from "./series";

// Only what a line chart needs, so the rest of Chart.js stays out of the bundle.
Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip);

export interface TrendLineProps {
  series: TrendSeries;
  /** the chart in words: the canvas's aria-label */
  summary: string;
  format: (value: number) => string;
  /** on the value axis (defaults to `format`) */
  tick?: (value: number) => string;
  height: number;
}

/**
 * A trend (lazy-loaded by chart-figure.tsx): cost per mile or km, fuel economy. A point with no
 * figure is a gap in the line, not a zero; every point is drawn, so one month alone still shows.
 */
export default function TrendLine({ series, summary, format, tick = format, height }: TrendLineProps) {
  const canvas = useChart(
    () => ({
      type: "line",
      data: {
        labels: series.labels,
        datasets: [
          {
            label: series.label,
            data: series.values,
            borderColor: series.colour,
            backgroundColor: series.colour,
            pointRadius: 4,
            spanGaps: false,
          },
        ],
      },
      options: {
        ...baseOptions(),
        scales: {
          // offset: the first and last points sit inside the plot, not on its edges
          x: { offset: true, grid: { display: false }, ticks: axisTicks },
          y: { beginAtZero: true, ticks: { ...axisTicks, callback: (v: number | string) => tick(Number(v)) } },
        },
        plugins: {
          tooltip: { intersect: false, callbacks: { label: (item) => `${series.label}: ${format(Number(item.raw))}` } },
        },
      },
    }),
    JSON.stringify(series),
  );
  return (
    <div className="chart-box" style={{ height }}>
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
