import { Component, lazy, Suspense, type ReactNode } from "react";
import { barSummary, trendSummary, type BarSeries, type TrendSeries } from "./series";

/*
 * The charts' entry (docs/decisions/0080): a <figure> with its caption and legend in HTML, the chart
 * itself loaded on first use, so Chart.js travels only to the pages that draw one. Until it is
 * drawn, or if its script cannot be loaded, the figure reads the chart in words.
 */
const StackedBars = lazy(() => import("./stacked-bars"));
const TrendLine = lazy(() => import("./trend-line"));

/** Shows the chart's words instead of a chart whose script failed to load or to draw. */
class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function Figure(props: {
  caption: string;
  legend?: BarSeries["sets"];
  summary: string;
  height: number;
  children: ReactNode;
}) {
  const { caption, legend, summary, height, children } = props;
  const words = (
    <p className="chart-fallback muted" style={{ minHeight: height }}>
      {summary}
    </p>
  );
  return (
    <figure className="chart-figure">
      <figcaption>
        <span className="chart-caption">{caption}</span>
        {legend && (
          <span className="chart-legend">
            {legend.map((set) => (
              <span key={set.key}>
                <span className="swatch" style={{ background: set.colour }} aria-hidden="true" />
                {set.label}
              </span>
            ))}
          </span>
        )}
      </figcaption>
      <ChartBoundary fallback={words}>
        <Suspense fallback={words}>{children}</Suspense>
      </ChartBoundary>
    </figure>
  );
}

/** Stacked bars with their legend; each bar's total and layers are also in the canvas's aria-label. */
export function BarsFigure(props: {
  caption: string;
  series: BarSeries;
  format: (value: number) => string;
  tick?: (value: number) => string;
  whole?: boolean;
  horizontal?: boolean;
  height?: number;
}) {
  const { caption, series, height = 220 } = props;
  const summary = barSummary(caption, series, props.format);
  return (
    <Figure caption={caption} legend={series.sets} summary={summary} height={height}>
      <StackedBars {...props} summary={summary} height={height} />
    </Figure>
  );
}

/**
 * A trend line; its points are also in the canvas's aria-label. With no figure at all (no distance,
 * no clean tank-to-tank stretch in any month) an empty axis would say nothing: the words say so.
 */
export function TrendFigure(props: {
  caption: string;
  series: TrendSeries;
  format: (value: number) => string;
  tick?: (value: number) => string;
  height?: number;
}) {
  const { caption, series, format, height = 200 } = props;
  const summary = trendSummary(caption, series, format);
  if (series.values.every((v) => v === null))
    return (
      <figure className="chart-figure">
        <figcaption>
          <span className="chart-caption">{caption}</span>
        </figcaption>
        <p className="chart-fallback muted">{summary}</p>
      </figure>
    );
  return (
    <Figure caption={caption} summary={summary} height={height}>
      <TrendLine series={series} summary={summary} format={format} tick={props.tick} height={height} />
    </Figure>
  );
}
