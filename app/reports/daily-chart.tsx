import type { DailyRow } from "../../shared/reports/reports";

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 28, left: 8 };

/** Per day, over the vehicles shown: miles and hours of driving. */
export function dailyTotals(rows: DailyRow[]): { day: string; miles: number; hours: number }[] {
  const byDay = new Map<string, { day: string; miles: number; hours: number }>();
  for (const r of rows) {
    const d = byDay.get(r.day) ?? { day: r.day, miles: 0, hours: 0 };
    d.miles += r.distanceMiles;
    d.hours += r.drivingSeconds / 3600;
    byDay.set(r.day, d);
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
}

/**
 * The Daily report's chart, our own SVG (no chart library for two series of bars): per day a
 * bar of distance and one of driving time, each scaled to its own maximum, the day under them.
 */
export function DailyChart({ rows }: { rows: DailyRow[] }) {
  const days = dailyTotals(rows);
  if (!days.length) return null;
  const maxMiles = Math.max(1, ...days.map((d) => d.miles));
  const maxHours = Math.max(1, ...days.map((d) => d.hours));
  const slot = (WIDTH - PAD.left - PAD.right) / days.length;
  const bar = Math.max(1, slot * 0.38);
  const plot = HEIGHT - PAD.top - PAD.bottom;
  const labelEvery = Math.ceil(days.length / 12);
  return (
    <figure className="daily-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Distance and driving time per day">
        {days.map((d, i) => {
          const x = PAD.left + i * slot + slot * 0.1;
          const milesHeight = (d.miles / maxMiles) * plot;
          const hoursHeight = (d.hours / maxHours) * plot;
          return (
            <g key={d.day} data-day={d.day}>
              <rect className="bar-distance" x={x} y={PAD.top + plot - milesHeight} width={bar} height={milesHeight}>
                <title>{`${d.day}: ${d.miles.toFixed(1)} mi`}</title>
              </rect>
              <rect
                className="bar-driving"
                x={x + bar}
                y={PAD.top + plot - hoursHeight}
                width={bar}
                height={hoursHeight}
              >
                <title>{`${d.day}: ${d.hours.toFixed(1)} h driving`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={x + bar} y={HEIGHT - 10} textAnchor="middle">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="muted">
        <span className="swatch bar-distance" /> Distance (max {maxMiles.toFixed(1)} mi){" "}
        <span className="swatch bar-driving" /> Driving time (max {maxHours.toFixed(1)} h)
      </figcaption>
    </figure>
  );
}
