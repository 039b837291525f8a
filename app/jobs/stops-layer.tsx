import type { GeoJSONSource, Map as MapboxMap, Marker } from "mapbox-gl";
import { useEffect, useRef } from "react";
import { addLayerBelowBeacons, useMapContext } from "../map/map-context";

import type { MapStop, StopLook } from "./map-stops";

export type { MapStop, StopLook };

/** Today's routes, and a proposed plan's (drawn dashed, its markers ringed: not what the drivers have yet). */
const SOURCES = { today: "job-routes", proposal: "job-routes-proposal" } as const;
export type StopsVariant = keyof typeof SOURCES;

/**
 * The dispatch page's stops on the map: each a numbered HTML marker (readable without the map's
 * glyphs, which the offline style may lack), a button that opens the stop's story (`onOpen`), named
 * for tests and screen readers by its label; and each vehicle's route drawn as a line through its
 * stops in order. The lines are added again after each style load; markers survive style changes.
 */
export function StopsLayer({
  stops,
  openId,
  onOpen,
  variant = "today",
}: {
  stops: readonly MapStop[];
  /** The stop whose story is open: its marker stands out, and the map shows it. */
  openId: string | null;
  onOpen: (jobId: string) => void;
  variant?: StopsVariant;
}) {
  const { map, styleGeneration } = useMapContext();
  const source = SOURCES[variant];

  useEffect(() => {
    addRouteLines(map, variant);
    (map.getSource(source) as GeoJSONSource | undefined)?.setData(routeLines(stops));
  }, [map, styleGeneration, stops, source, variant]);

  useStopMarkers(map, stops, openId, onOpen, variant);
  useOpenStopInView(map, stops, openId);
  useStopsFramedOnResize(map, stops);

  useEffect(
    () => () => {
      if (map.getLayer(source)) map.removeLayer(source);
      if (map.getSource(source)) map.removeSource(source);
    },
    [map, source],
  );

  return null;
}

/** One marker per stop, kept across renders (moved and redrawn, not rebuilt), gone with its stop or the map. */
function useStopMarkers(
  map: MapboxMap,
  stops: readonly MapStop[],
  openId: string | null,
  onOpen: (jobId: string) => void,
  variant: StopsVariant,
) {
  const markers = useRef(new Map<string, Marker>());
  const open = useRef(onOpen);
  open.current = onOpen;

  useEffect(() => {
    let cancelled = false;
    void import("../map/mapbox-gl").then(({ default: mapboxgl }) => {
      if (cancelled) return;
      const shown = markers.current;
      for (const [id, marker] of shown) {
        if (stops.some((s) => s.id === id)) continue;
        marker.remove();
        shown.delete(id);
      }
      for (const stop of stops) {
        let marker = shown.get(stop.id);
        if (!marker) {
          marker = new mapboxgl.Marker({ element: markerButton((id) => open.current(id)) });
          marker.setLngLat([stop.longitude, stop.latitude]).addTo(map);
          shown.set(stop.id, marker);
        }
        drawMarker(marker.getElement(), stop, stop.id === openId);
        marker.getElement().classList.toggle("proposed", variant === "proposal");
        marker.setLngLat([stop.longitude, stop.latitude]);
      }
      fitOnce(map, stops, shown.size, variant);
    });
    return () => {
      cancelled = true;
    };
  }, [map, stops, openId, variant]);

  useEffect(() => {
    const shown = markers.current;
    return () => {
      for (const marker of shown.values()) marker.remove();
      shown.clear();
    };
  }, [map]);
}

/** The open stop is brought into view when it is off the map's screen (the dispatcher had moved the map away). */
function useOpenStopInView(map: MapboxMap, stops: readonly MapStop[], openId: string | null) {
  const open = stops.find((s) => s.id === openId);
  const longitude = open?.longitude;
  const latitude = open?.latitude;
  useEffect(() => {
    if (longitude === undefined || latitude === undefined) return;
    if (!map.getBounds()?.contains([longitude, latitude])) map.easeTo({ center: [longitude, latitude] });
  }, [map, longitude, latitude]);
}

/**
 * A stop's marker element: a button (mapbox-gl would make it an image to assistive technology
 * without a role of its own), whose click opens the stop and goes no further: the map's own click
 * would otherwise pick a point under it while "Pick on map" is on.
 */
function markerButton(onOpen: (jobId: string) => void): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.setAttribute("role", "button");
  element.addEventListener("click", (event) => {
    event.stopPropagation();
    if (element.dataset.jobId) onOpen(element.dataset.jobId);
  });
  return element;
}

const LOOKS: readonly StopLook[] = ["planned", "arrived", "done", "late", "skipped"];

/**
 * Draws a stop on its marker. Classes are added and removed one by one: mapbox-gl's own
 * (`mapboxgl-marker`, its anchor), which place the marker over the map, are on the same element,
 * and replacing the whole class list dropped them on the first redraw, leaving the marker below the map.
 */
function drawMarker(element: HTMLElement, stop: MapStop, open: boolean) {
  element.classList.add("stop-marker");
  element.classList.toggle("open", open);
  element.classList.remove(...LOOKS);
  element.classList.add(stop.look);
  element.textContent = stop.number ? String(stop.number) : "•";
  element.setAttribute("aria-label", `Stop ${stop.number ?? "unassigned"}: ${stop.title} (${LOOK_WORDS[stop.look]})`);
  element.dataset.look = stop.look;
  element.dataset.jobId = stop.id;
  if (stop.colour) element.style.setProperty("--route-colour", stop.colour);
}

const LOOK_WORDS: Record<StopLook, string> = {
  planned: "to come",
  arrived: "arrived",
  done: "done",
  late: "late",
  skipped: "skipped",
};

let fittedFor = "";
/**
 * Frames the day's stops when the set of stops first shows (not on each status change). A proposal
 * is framed when it opens, though its stops are the day's: the map beside it is narrower by then.
 */
function fitOnce(map: MapboxMap, stops: readonly MapStop[], count: number, variant: StopsVariant) {
  const key = `${variant}:${stops
    .map((s) => s.id)
    .sort()
    .join()}`;
  if (!count || key === fittedFor) return;
  fittedFor = key;
  fitStops(map, stops);
}

function fitStops(map: MapboxMap, stops: readonly MapStop[]) {
  if (stops.length === 0) return;
  const lngs = stops.map((s) => s.longitude);
  const lats = stops.map((s) => s.latitude);
  map.fitBounds(
    [
      [Math.min(...lngs), Math.min(...lats)],
      [Math.max(...lngs), Math.max(...lats)],
    ],
    { padding: 60, maxZoom: 14, duration: 0 },
  );
}

/**
 * The day's stops framed again when the map's box changes (a stop's panel opening beside it, or
 * closing): kept centred, a narrowed map would leave stops off its edges.
 */
function useStopsFramedOnResize(map: MapboxMap, stops: readonly MapStop[]) {
  const latest = useRef(stops);
  latest.current = stops;
  useEffect(() => {
    const refit = () => fitStops(map, latest.current);
    map.on("resize", refit);
    return () => {
      map.off("resize", refit);
    };
  }, [map]);
}

function addRouteLines(map: MapboxMap, variant: StopsVariant) {
  const source = SOURCES[variant];
  if (map.getSource(source)) return;
  map.addSource(source, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  const colour = ["coalesce", ["get", "colour"], "#6366f1"] as ["coalesce", ...unknown[]];
  addLayerBelowBeacons(map, {
    id: source,
    type: "line",
    source,
    layout: { "line-join": "round", "line-cap": "round" },
    paint:
      variant === "proposal"
        ? { "line-color": colour, "line-width": 3, "line-opacity": 0.9, "line-dasharray": [2, 1.5] }
        : { "line-color": colour, "line-width": 3, "line-opacity": 0.8 },
  });
}

interface RouteLine {
  type: "Feature";
  properties: { routeId: string; colour: string | null };
  geometry: { type: "LineString"; coordinates: [number, number][] };
}

/** One line per route through its stops in order (straight lines: the plan, not the road taken). */
export function routeLines(stops: readonly MapStop[]) {
  const byRoute = new Map<string, MapStop[]>();
  for (const stop of stops) {
    if (!stop.routeId || !stop.number) continue;
    byRoute.set(stop.routeId, [...(byRoute.get(stop.routeId) ?? []), stop]);
  }
  const features: RouteLine[] = [];
  for (const [routeId, route] of byRoute) {
    if (route.length < 2) continue;
    const ordered = route.sort((a, b) => a.number! - b.number!);
    features.push({
      type: "Feature",
      properties: { routeId, colour: ordered[0]!.colour ?? null },
      geometry: { type: "LineString", coordinates: ordered.map((s): [number, number] => [s.longitude, s.latitude]) },
    });
  }
  return { type: "FeatureCollection" as const, features };
}
