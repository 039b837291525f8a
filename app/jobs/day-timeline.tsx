import { daySpan, placeOnSpan, stopRange, type TimelineStop } from "./timeline";
import type { ListedStop } from "./stop-list";
import { stopStatusWords } from "./status";

type Stop = ListedStop & TimelineStop;
export interface TimelineRoute {
  id: string;
  name: string;
  stops: readonly Stop[];
}

/**
 * The day's routes on one time axis, a row per vehicle: each stop a block over its window,
 * numbered in its vehicle's order, done and late ones coloured apart, so a dispatcher sees at a
 * glance which vehicle is overbooked in the afternoon. Stops without a window are listed by the
 * row's stop list, not here. A stop's block opens its story (`onOpen`).
 */
export function DayTimeline({ routes, onOpen }: { routes: readonly TimelineRoute[]; onOpen: (jobId: string) => void }) {
  const span = daySpan(routes.flatMap((r) => r.stops));
  const hours: number[] = [];
  for (let m = span.start; m <= span.end; m += 120) hours.push(m);
  return (
    <figure className="day-timeline" aria-label="Day timeline">
      <div className="timeline-axis" aria-hidden>
        {hours.map((m) => (
          <span key={m} style={{ left: `${placeOnSpan({ start: m, end: m }, span).left}%` }}>
            {String(m / 60).padStart(2, "0")}:00
          </span>
        ))}
      </div>
      {routes.map((route) => (
        <div key={route.id} className="timeline-row" role="group" aria-label={`${route.name}'s day`}>
          <span className="timeline-name">{route.name}</span>
          <div className="timeline-track">
            {route.stops.map((stop, index) => {
              const range = stopRange(stop);
              if (!range) return null;
              const { left, width } = placeOnSpan(range, span);
              return (
                <button
                  type="button"
                  key={stop.id}
                  className={`timeline-stop ${stop.status}${stop.late ? " late" : ""}`}
                  style={{ left: `${left}%`, width: `${width}%` }}
                  title={`${index + 1}. ${stop.title}`}
                  aria-label={`${index + 1}. ${stop.title}: ${stopStatusWords(stop)}${stop.late ? ", late" : ""}`}
                  onClick={() => onOpen(stop.id)}
                >
                  {index + 1}
                </button>
              );
            })}
          </div>
        </div>
      ))}
    </figure>
  );
}
