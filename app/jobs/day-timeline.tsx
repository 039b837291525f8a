import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from "react";
import { wallClockText } from "../../shared/units/clock";
import { dayOf, localParts } from "../../shared/units/time-zone";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { useNow } from "../vehicles/use-now";
import { isFinished, stopStatusWords } from "./status";
import type { ListedStop } from "./stop-list";
import { daySpan, laneLayout, placeOnSpan, stopRange, type TimelineStop } from "./timeline";
import { TimelineMoveBar } from "./timeline-move-bar";
import { useStopDrag, type StopDrag } from "./timeline-drag";

type Stop = ListedStop & TimelineStop;
export interface TimelineRoute {
  id: string;
  name: string;
  stops: readonly Stop[];
}
type Span = { start: number; end: number };

/** What a planner can do from the timeline; absent, it only shows. */
export interface TimelineActions {
  /** A vehicle's whole new day in order, as `reorderJobs` takes it (the stop may come from another vehicle). */
  onReorder?: (vehicleId: string, jobIds: string[]) => void;
  /** Open a stop's detail (the page decides what that is): offered on the selected stop. */
  onOpen?: (jobId: string) => void;
}

/**
 * The day's routes on one time axis, a row per vehicle: each stop a block over its window,
 * numbered in its vehicle's order, done and late ones coloured apart, overlapping windows stacked
 * in lanes so none hides another (issue 53). On a phone the day is wider than the screen: it
 * scrolls sideways, opens on now (today) and says so. A planner drags a stop onto another time or
 * vehicle with a mouse (pointer events), or selects it and moves it with buttons (phones,
 * keyboards). Stops without a window are listed by the row's stop list, not here.
 */
export function DayTimeline({
  routes,
  date,
  onReorder,
  onOpen,
}: { routes: readonly TimelineRoute[]; date: string } & TimelineActions) {
  const span = useMemo(() => daySpan(routes.flatMap((r) => r.stops)), [routes]);
  const scroller = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const nowMinute = useNowMinute(date);
  const overflows = useScrollToNow(scroller, span, nowMinute, routes.length > 0);
  const drag = useStopDrag(scroller, span, routes, onReorder);
  return (
    <figure className="day-timeline" aria-label="Day timeline">
      {overflows ? (
        <p className="timeline-hint" data-testid="timeline-hint">
          Swipe sideways for the rest of the day ↔
        </p>
      ) : null}
      <div className="timeline-scroll" ref={scroller}>
        <TimelineAxis span={span} />
        {routes.map((route) => (
          <TimelineRow
            key={route.id}
            route={route}
            span={span}
            nowMinute={nowMinute}
            drag={drag}
            selected={selected}
            onSelect={setSelected}
            movable={Boolean(onReorder)}
          />
        ))}
      </div>
      <TimelineMoveBar
        routes={routes}
        selected={selected}
        onClose={() => setSelected(null)}
        onReorder={onReorder}
        onOpen={onOpen}
      />
    </figure>
  );
}

/** The hours along the top, on the workspace's clock as every time on the page (12 or 24 h). */
function TimelineAxis({ span }: { span: Span }) {
  const { hourCycle } = useWorkspaceClock();
  const hours: number[] = [];
  for (let m = span.start; m <= span.end; m += 120) hours.push(m);
  return (
    <div className="timeline-axis" aria-hidden>
      <span className="timeline-corner" />
      <div className="timeline-hours">
        {hours.map((m) => (
          <span key={m} style={{ left: `${placeOnSpan({ start: m, end: m }, span).left}%` }}>
            {wallClockText(`${(m % 1440) / 60}:00`, hourCycle)}
          </span>
        ))}
      </div>
    </div>
  );
}

function TimelineRow({
  route,
  span,
  nowMinute,
  drag,
  selected,
  onSelect,
  movable,
}: {
  route: TimelineRoute;
  span: Span;
  nowMinute: number | null;
  drag: StopDrag;
  selected: string | null;
  onSelect: (id: string | null) => void;
  movable: boolean;
}) {
  const { lanes, count } = useMemo(() => laneLayout(route.stops), [route.stops]);
  const target = drag.state?.overRow === route.id;
  return (
    <div
      className={`timeline-row${target ? " drop-target" : ""}`}
      role="group"
      aria-label={`${route.name}'s day`}
      data-row-id={route.id}
      data-lanes={count}
    >
      <span className="timeline-name">{route.name}</span>
      <div
        className="timeline-track"
        style={{ height: `${count * LANE_PX + 4}px`, backgroundSize: `${(120 / (span.end - span.start)) * 100}% 100%` }}
      >
        {nowMinute !== null && nowMinute >= span.start && nowMinute <= span.end ? (
          <span
            className="timeline-now"
            style={{ left: `${placeOnSpan({ start: nowMinute, end: nowMinute }, span).left}%` }}
          />
        ) : null}
        {route.stops.map((stop, index) => (
          <StopBlock
            key={stop.id}
            stop={stop}
            number={index + 1}
            lane={lanes.get(stop.id)}
            span={span}
            drag={drag}
            selected={selected === stop.id}
            onSelect={() => onSelect(selected === stop.id ? null : stop.id)}
            onPointerDown={movable && !isFinished(stop.status) ? (e) => drag.start(e, stop.id, route.id) : undefined}
          />
        ))}
      </div>
    </div>
  );
}

/** One stop's block: over its window, in its lane, following the pointer while dragged. */
function StopBlock({
  stop,
  number,
  lane,
  span,
  drag,
  selected,
  onSelect,
  onPointerDown,
}: {
  stop: Stop;
  number: number;
  lane: number | undefined;
  span: Span;
  drag: StopDrag;
  selected: boolean;
  onSelect: () => void;
  onPointerDown?: (e: ReactPointerEvent<HTMLElement>) => void;
}) {
  const range = stopRange(stop);
  if (!range || lane === undefined) return null;
  const { left, width } = placeOnSpan(range, span);
  const dragged = drag.state?.jobId === stop.id && drag.state.moved ? drag.state : null;
  const looks = [stop.status, stop.late && "late", selected && "selected", dragged && "dragging"];
  return (
    <button
      type="button"
      className={["timeline-stop", ...looks].filter(Boolean).join(" ")}
      style={{
        left: `${left}%`,
        width: `${width}%`,
        top: `${lane * LANE_PX + 2}px`,
        transform: dragged ? `translate(${dragged.dx}px, ${dragged.dy}px)` : undefined,
      }}
      title={`${number}. ${stop.title}`}
      aria-label={`Stop ${number}: ${stop.title}: ${stopStatusWords(stop)}${stop.late ? ", late" : ""}`}
      aria-pressed={selected}
      data-job-id={stop.id}
      data-lane={lane}
      onPointerDown={onPointerDown}
      onClick={() => (drag.justDropped() ? undefined : onSelect())}
    >
      {number}
    </button>
  );
}

/** Height of one lane of stops, in px (CSS lays the blocks out by it). */
const LANE_PX = 22;

/** Now, as minutes after the workspace's midnight, while `date` is today there; else null. */
function useNowMinute(date: string): number | null {
  const { timeZone } = useWorkspaceClock();
  const now = useNow(60_000);
  if (dayOf(now, timeZone) !== date) return null;
  const p = localParts(now, timeZone);
  return p.hour * 60 + p.minute;
}

/**
 * When the day is wider than its box (a phone), opens it on now (today; else on the day's start),
 * a third of the way in, and answers whether it overflows, so the page can say it scrolls.
 */
function useScrollToNow(scroller: RefObject<HTMLDivElement>, span: Span, nowMinute: number | null, ready: boolean) {
  const [overflows, setOverflows] = useState(false);
  const scrolled = useRef(false);
  useEffect(() => {
    const box = scroller.current;
    if (!box || !ready) return;
    const measure = () => {
      const over = box.scrollWidth > box.clientWidth + 1;
      setOverflows(over);
      if (!over || scrolled.current || nowMinute === null) return;
      const track = box.querySelector<HTMLElement>(".timeline-hours");
      if (!track) return;
      const x = track.offsetLeft + ((nowMinute - span.start) / (span.end - span.start)) * track.offsetWidth;
      box.scrollLeft = Math.max(0, x - box.clientWidth / 3);
      scrolled.current = true;
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [scroller, span, nowMinute, ready]);
  return overflows;
}
