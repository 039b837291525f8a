import { Chart, type ChartConfiguration, type ChartType } from "chart.js";
import { useEffect, useRef } from "react";

/** A person who asked their system for less motion gets charts drawn at once (docs/decisions/0080). */
export const prefersReducedMotion = () =>
  typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Axis labels flat and thinned out rather than turned or crowded: legible on a 390 px phone. */
export const axisTicks = { maxRotation: 0, autoSkip: true, autoSkipPadding: 12, font: { size: 12 } } as const;

/** What every chart shares: it fills its box, follows the page's text colour and font, and moves only if allowed. */
export function baseOptions() {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: prefersReducedMotion() ? (false as const) : { duration: 250 },
    plugins: { tooltip: { intersect: false } },
  };
}

/**
 * Draws `config()` on the returned canvas, again whenever `key` (the data, as text) changes, and
 * lets the chart go when the canvas does. Colours of text and font come from the page's CSS.
 */
export function useChart<T extends ChartType>(config: () => ChartConfiguration<T>, key: string) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const latest = useRef(config);
  latest.current = config;
  useEffect(() => {
    if (!canvas.current) return;
    const style = getComputedStyle(canvas.current);
    Chart.defaults.color = style.color;
    Chart.defaults.font.family = style.fontFamily;
    const chart = new Chart(canvas.current, latest.current());
    return () => chart.destroy();
  }, [key]);
  return canvas;
}
