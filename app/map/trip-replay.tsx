import type { GeoJSONSource, Map as MapboxMap } from "mapbox-gl";
import { useEffect, useMemo, useRef, useState, type MutableRefObject } from "react";
import type { VehicleEvent } from "../../shared/fleet/vehicle-event";
import { useVehicleEvents } from "../store";
import { mph } from "../vehicles/format";
import { boundsOf, fitMaxZoom, fitPadding } from "./geometry";
import { addLayerBelowBeacons, useMapContext } from "./map-context";
import { advance, positionAt, REPLAY_SPEEDS, type ReplaySpeed, type TimedPoint } from "./replay";
import { fetchTrack } from "./trip-paths";
import { timeText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";

export const TRIP_COLOUR = "#7c3aed";
export const REPLAY_MARKER_COLOUR = "#f97316";
const PATH = "trip-path";
/** The replay bar: 28 px from the map's bottom, about 52 px tall. */
const REPLAY_BAR_INSET = 28 + 52;
const MARKER = "trip-marker";

const point = (lng: number, lat: number) => ({
  type: "Feature" as const,
  properties: {},
  geometry: { type: "Point" as const, coordinates: [lng, lat] },
});
type MarkerRef = MutableRefObject<{ lng: number; lat: number } | null>;

/**
 * A timeline event on the map (docs/product.md's side panel timeline, clicked): a trip (driving or
 * towed) draws its recorded path, fits the map to it and offers a replay bar; a stop shows its
 * place. Escape, the bar's close button or the Vehicles crumb go back to the live view.
 */
export function TripReplay({
  vehicleId,
  eventId,
  onClose,
}: {
  vehicleId: string;
  eventId: string;
  onClose: () => void;
}) {
  const { map, styleGeneration, debug } = useMapContext();
  const event = useVehicleEvents(vehicleId).find((e) => e.id === eventId);
  /** Where the replay marker is now: put back there when a style switch has dropped its layer. */
  const markerAt = useRef<{ lng: number; lat: number } | null>(null);
  useEscapeCloses(onClose);
  const points = useEventPath(vehicleId, event, markerAt);
  useEventOnMap(map, points, styleGeneration, markerAt);
  useMapFittedToEvent(map, points);

  if (!event || event.type === "STOP" || !points?.length) return null;
  return (
    <ReplayBar
      key={event.id}
      map={map}
      markerAt={markerAt}
      debug={debug}
      event={event}
      points={points}
      onClose={onClose}
    />
  );
}

function useEscapeCloses(onClose: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
}

/** The event's path (a stop: its place), fetched once per event and cached per finished trip; null until known. */
function useEventPath(vehicleId: string, event: VehicleEvent | undefined, markerAt: MarkerRef): TimedPoint[] | null {
  const [points, setPoints] = useState<TimedPoint[] | null>(null);
  const start = event?.startTime;
  const end = event?.endTime;
  const type = event?.type;
  const location = event?.location;
  useEffect(() => {
    setPoints(null);
    markerAt.current = null;
    if (start === undefined || !type) return;
    if (type === "STOP") {
      if (location) setPoints([{ t: start, lat: location.latitude, lng: location.longitude, speed: 0 }]);
      return;
    }
    const controller = new AbortController();
    fetchTrack(vehicleId, start, end ?? Date.now(), { final: end !== null, signal: controller.signal })
      .then(setPoints)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn("Trip path unavailable:", error);
      });
    return () => controller.abort();
  }, [vehicleId, start, end, type, location, markerAt]);
  return points;
}

/** The path under the vehicles and the marker above them, added again after a style switch. */
function useEventOnMap(map: MapboxMap, points: TimedPoint[] | null, styleGeneration: number, markerAt: MarkerRef) {
  useEffect(() => {
    if (!points?.length) return;
    // A stop is one point: its place, no path.
    if (points.length > 1) addTripPath(map, points);
    addReplayMarker(map, markerAt.current ?? points[0]!);
    return () => {
      for (const id of [MARKER, PATH]) {
        if (map.getLayer(id)) map.removeLayer(id);
        if (map.getSource(id)) map.removeSource(id);
      }
    };
  }, [map, points, styleGeneration, markerAt]);
}

function addTripPath(map: MapboxMap, points: TimedPoint[]) {
  map.addSource(PATH, {
    type: "geojson",
    data: {
      type: "Feature",
      properties: {},
      geometry: { type: "LineString", coordinates: points.map((p) => [p.lng, p.lat]) },
    },
  });
  addLayerBelowBeacons(map, {
    id: PATH,
    type: "line",
    source: PATH,
    layout: { "line-join": "round", "line-cap": "round" },
    paint: { "line-color": TRIP_COLOUR, "line-width": 5 },
  });
}

/**
 * The marker alone goes above the beacons: a stop is often where the vehicle is still parked,
 * and under its beacon the place shown would be hidden. Added after the beacons (also after a
 * style switch: the beacons layer re-adds itself on "style.load", this on the bump that follows).
 */
function addReplayMarker(map: MapboxMap, at: { lng: number; lat: number }) {
  map.addSource(MARKER, { type: "geojson", data: point(at.lng, at.lat) });
  map.addLayer({
    id: MARKER,
    type: "circle",
    source: MARKER,
    paint: {
      "circle-radius": 9,
      "circle-color": REPLAY_MARKER_COLOUR,
      "circle-stroke-width": 3,
      "circle-stroke-color": "#ffffff",
    },
  });
}

/** Fitted once per event with docs/product.md's padding, plus the replay bar's height at the bottom (it floats over the map as the panel does). */
function useMapFittedToEvent(map: MapboxMap, points: TimedPoint[] | null) {
  useEffect(() => {
    if (!points?.length) return;
    const container = map.getContainer();
    const bounds = boundsOf(points);
    if (!bounds || !container.clientWidth) return;
    const padding = fitPadding(container.clientWidth, container.clientHeight);
    if (points.length > 1) padding.bottom += REPLAY_BAR_INSET;
    map.fitBounds(bounds, { padding, maxZoom: fitMaxZoom(1), duration: 600 });
  }, [map, points]);
}

function ReplayBar({
  map,
  markerAt,
  debug,
  event,
  points,
  onClose,
}: {
  map: MapboxMap;
  markerAt: MarkerRef;
  debug: boolean;
  event: VehicleEvent;
  points: TimedPoint[];
  onClose: () => void;
}) {
  const from = event.startTime;
  const to = Math.max(from, event.endTime ?? points.at(-1)!.t);
  const { cursor, setCursor, playing, togglePlaying, speed, setSpeed } = useReplayClock(from, to);
  const at = useMemo(() => positionAt(points, cursor)!, [points, cursor]);
  useMarkerFollows(map, at, markerAt);
  // On the workspace's clock, as the timeline entry it replays (docs/decisions/0079).
  const clock = useWorkspaceClock();

  return (
    <div
      className="replay-bar"
      role="group"
      aria-label="Trip replay"
      data-position={debug ? `${at.lat.toFixed(6)},${at.lng.toFixed(6)}` : undefined}
    >
      <button type="button" className="button" aria-label={playing ? "Pause" : "Play"} onClick={togglePlaying}>
        {playing ? "❚❚" : "▶"}
      </button>
      <input
        type="range"
        aria-label="Replay time"
        min={from}
        max={to}
        step={1000}
        value={cursor}
        onChange={(e) => setCursor(Number(e.currentTarget.value))}
      />
      <span className="replay-readout" data-testid="replay-readout">
        <span className="mono">{timeText(cursor, clock, { seconds: true })}</span> · {mph(at.speed)}
      </span>
      <div className="replay-speeds" role="group" aria-label="Replay speed">
        {REPLAY_SPEEDS.map((s) => (
          <button key={s} type="button" className="button" aria-pressed={speed === s} onClick={() => setSpeed(s)}>
            ×{s}
          </button>
        ))}
      </div>
      <button type="button" className="button" aria-label="Close replay" onClick={onClose}>
        ×
      </button>
    </div>
  );
}

/**
 * The replay's clock: a cursor from the trip's start to its end that, while playing, advances
 * with wall time × speed and pauses at the end; Play at the end starts over.
 */
function useReplayClock(from: number, to: number) {
  const [cursor, setCursor] = useState(from);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<ReplaySpeed>(10);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const elapsed = now - last;
      last = now;
      setCursor((c) => {
        const next = advance(c, elapsed, speed, to);
        if (next >= to) setPlaying(false);
        return next;
      });
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, to]);
  const togglePlaying = () => {
    if (!playing && cursor >= to) setCursor(from);
    setPlaying(!playing);
  };
  return { cursor, setCursor, playing, togglePlaying, speed, setSpeed };
}

/** The marker on the map is where the cursor has the vehicle (and remembered for a style switch). */
function useMarkerFollows(map: MapboxMap, at: { lng: number; lat: number }, markerAt: MarkerRef) {
  useEffect(() => {
    markerAt.current = { lng: at.lng, lat: at.lat };
    (map.getSource(MARKER) as GeoJSONSource | undefined)?.setData(point(at.lng, at.lat));
  }, [map, at, markerAt]);
}
