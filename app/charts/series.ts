/**
 * What a chart draws, as plain data (docs/decisions/0080): built from the rows a page's table shows,
 * never fetched or computed again, so the picture and the table cannot disagree. The chart modules
 * (stacked-bars.tsx, trend-line.tsx) draw these; the same data words the canvas's aria-label.
 */

/** One stacked bar per label, one layer per set (a cost kind, an on-time outcome). */
export interface BarSeries {
  labels: string[];
  sets: { key: string; label: string; colour: string; values: number[] }[];
}

/** One line over the labels; null is a gap (no distance, no clean tank-to-tank stretch), never a zero. */
export interface TrendSeries {
  labels: string[];
  label: string;
  colour: string;
  values: (number | null)[];
}

/** Each bar's height: its sets added up. */
export const barTotals = (series: BarSeries): number[] =>
  series.labels.map((_, i) => series.sets.reduce((sum, set) => sum + (set.values[i] ?? 0), 0));

/**
 * A bar chart in words, for its aria-label and its fallback: each bar that is not empty with its
 * total and its layers, then the total of all bars and of each layer.
 */
export function barSummary(title: string, series: BarSeries, show: (value: number) => string): string {
  const layers = (value: (set: BarSeries["sets"][number]) => number) =>
    series.sets
      .map((set) => ({ label: set.label.toLowerCase(), value: value(set) }))
      .filter((l) => l.value)
      .map((l) => `${l.label} ${show(l.value)}`);
  const totals = barTotals(series);
  const bars = series.labels.flatMap((label, i) => {
    if (!totals[i]) return [];
    return [`${label} ${show(totals[i])} (${layers((set) => set.values[i] ?? 0).join(", ")})`];
  });
  const total = totals.reduce((s, v) => s + v, 0);
  const byLayer = layers((set) => set.values.reduce((s, v) => s + v, 0));
  return `${title}: ${bars.length ? bars.join("; ") : "none"}. Total ${show(total)}${byLayer.length ? ` (${byLayer.join(", ")})` : ""}.`;
}

/** A trend in words: each point, "none" where there is no figure. */
export function trendSummary(title: string, series: TrendSeries, show: (value: number) => string): string {
  const points = series.labels.map((label, i) => {
    const v = series.values[i];
    return `${label} ${v === null || v === undefined ? "none" : show(v)}`;
  });
  return `${title}: ${points.length ? points.join("; ") : "nothing yet"}.`;
}
