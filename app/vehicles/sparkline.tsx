import type { HistoryPoint } from "../../shared/fleet/vehicle-history";

const WIDTH = 240;
const HEIGHT = 48;

/**
 * A small inline SVG line of one series over time, no chart library: time across, value up,
 * scaled to [0, max]. The accessible name carries what the line shows.
 */
export function Sparkline({
  points,
  value,
  max,
  label,
  colour,
}: {
  points: HistoryPoint[];
  value: (p: HistoryPoint) => number | null;
  /** top of the scale (at least the largest value) */
  max: number;
  label: string;
  colour: string;
}) {
  const series = points.flatMap((p) => {
    const v = value(p);
    return v === null ? [] : [{ t: p.t, v }];
  });
  if (!series.length) return null;
  const t0 = series[0]!.t;
  const span = Math.max(1, series.at(-1)!.t - t0);
  const top = Math.max(max, ...series.map((s) => s.v)) || 1;
  const coords = series.map((s) => {
    const x = series.length === 1 ? WIDTH / 2 : ((s.t - t0) / span) * WIDTH;
    const y = HEIGHT - 2 - (s.v / top) * (HEIGHT - 4);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      <polyline
        points={coords.join(" ")}
        data-points={series.length}
        fill="none"
        stroke={colour}
        strokeWidth={2}
        strokeLinejoin="round"
      />
      {series.length === 1 ? <circle cx={WIDTH / 2} cy={coords[0]!.split(",")[1]} r={3} fill={colour} /> : null}
    </svg>
  );
}
