// mapbox-gl's stylesheet goes wherever a map is drawn, and every map is drawn through this host:
// /map, /locations, /jobs, the share and tracking pages (issue 53; it was imported by two of the
// maps only, so the others drew their markers unplaced below the canvas). It still comes only
// with the map's code, never on other pages (docs/decisions/0054).
import "mapbox-gl/dist/mapbox-gl.css";
import type { Map as MapboxMap } from "mapbox-gl";
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import { markStartup } from "../lib/startup-marks";
import type { Camera } from "./camera";
import { INITIAL_VIEW } from "./geometry";
import { mapDebugEnabled } from "./map-debug";
import { MapContext, type MapContextValue } from "./map-context";
import { BaseMapAttribution } from "./base-map-attribution";
import { OFFLINE_TOKEN, offlineStyle, streetStyleFor, type StreetStyle } from "./map-style";
import { loadOfflineGeography } from "./offline-geography";
import { StreetMapNotice } from "./street-map-notice";
import { watchStreetStyle, type BaseMap } from "./style-fallback";
import type { Mapbox } from "./mapbox-gl";

/** The one map, opened on the street style for `token`, or on the offline geography when the browser starts offline. */
function createMap(
  mapboxgl: Mapbox,
  container: HTMLDivElement,
  token: string,
  street: StreetStyle,
  startOffline: boolean,
  camera: Camera,
): MapboxMap {
  mapboxgl.setAccessToken(token || OFFLINE_TOKEN);
  // Without a token nothing of Mapbox's is used: no API base means mapbox-gl posts no telemetry,
  // map loads or map sessions, which it otherwise sends with the placeholder token (issue 56).
  if (!token) mapboxgl.setBaseApiUrl("");
  // One set of web workers for every map of the page's life: without it, the last map's removal
  // (leaving /locations for /map) terminates the shared workers while mapbox-gl still holds
  // them, and the next map's GeoJSON sources and labels never arrive (seen in Chromium).
  mapboxgl.prewarm();
  return new mapboxgl.Map({
    container,
    style: startOffline ? offlineStyle() : street.style,
    center: camera.center,
    zoom: camera.zoom,
    // Mapbox's own control (its terms); OpenFreeMap's and the offline data's: BaseMapAttribution.
    attributionControl: street.id === "mapbox",
    // Flat, so what fits on screen is what project() says (mapbox-gl 3 may pick a globe),
    // and the beacons' custom layer draws in Web Mercator.
    projection: "mercator",
    // Its performance metrics go to Mapbox too: only where the workspace uses Mapbox.
    performanceMetricsCollection: Boolean(token),
  });
}

/**
 * Keeps the map's view written on its element, for tests and tools (the map itself is one WebGL
 * canvas), on camera stops and style loads only; and offers a style rebuilt from scratch, as the
 * street style's fallback gets. Answers the view's reporter (called on each style load) and the cleanup.
 */
function exposeForDebugging(m: MapboxMap, element: () => HTMLDivElement | null) {
  const reportView = () => {
    const c = m.getCenter();
    element()?.setAttribute("data-zoom", m.getZoom().toFixed(2));
    element()?.setAttribute("data-center", `${c.lng.toFixed(5)},${c.lat.toFixed(5)}`);
  };
  m.on("moveend", reportView);
  m.on("load", reportView);
  // The streets and offline styles cannot be diffed (mapbox-gl rebuilds); diffed against itself,
  // the same style would be a no-op. (mapbox-gl's SetStyleOptions type wrongly requires its font
  // options, which it defaults.)
  window.__fleetMapRestyle = () => m.setStyle(offlineStyle(), { diff: false } as Parameters<MapboxMap["setStyle"]>[1]);
  return { reportView, remove: () => delete window.__fleetMapRestyle };
}

/** Where a host's map opens, given its element's size: its own camera rule, or null for the default view. */
export type InitialView = (width: number, height: number) => Camera | null;

/**
 * The map instance for `token`, created once mapbox-gl has loaded (looking where `initialView`
 * says, asked at that moment) and removed when the token changes or the host unmounts.
 * `styleGeneration` counts the styles that loaded (each starts without the app's layers) and
 * `base` says which base map shows.
 */
function useMapInstance(
  container: RefObject<HTMLDivElement>,
  token: string,
  debug: boolean,
  initialView: RefObject<InitialView | undefined>,
) {
  const [map, setMap] = useState<MapboxMap | null>(null);
  const [styleGeneration, setStyleGeneration] = useState(0);
  const [base, setBase] = useState<BaseMap>(() => streetStyleFor(token).id);

  useEffect(() => {
    let cancelled = false;
    let created: MapboxMap | null = null;
    let unwatch: (() => void) | undefined;
    let undebug: (() => void) | undefined;
    const street = streetStyleFor(token);
    // Offline at the start: the street style cannot load, so the map starts on its own geography.
    const startOffline = !navigator.onLine;
    setBase(startOffline ? "fallback" : street.id);
    void import("./mapbox-gl").then(({ default: mapboxgl }) => {
      if (cancelled || !container.current) return;
      markStartup("map creating");
      const { clientWidth, clientHeight } = container.current;
      const camera = initialView.current?.(clientWidth, clientHeight) ?? INITIAL_VIEW;
      const m = (created = createMap(mapboxgl, container.current, token, street, startOffline, camera));
      const debugging = debug ? exposeForDebugging(m, () => container.current) : null;
      undebug = debugging?.remove;
      unwatch = watchStreetStyle(m, street, setBase, startOffline);
      // Each style that loads (the first, the offline fallback, the street style coming back)
      // starts without the app's layers: the layer components add theirs again on this bump.
      m.on("style.load", () => {
        // The offline geography (when this is the offline style) once the vehicles are drawn:
        // mapbox-gl's one worker would otherwise parse its 2 MB before the vehicles' data.
        m.once("idle", () => loadOfflineGeography(m));
        debugging?.reportView();
        setStyleGeneration((g) => g + 1);
      });
      m.on("load", () => {
        markStartup("map loaded");
        setMap(m);
      });
    });
    return () => {
      cancelled = true;
      unwatch?.();
      undebug?.();
      setMap(null);
      // After the layer components' own cleanups (React runs a parent's before its children's),
      // which still take their layers and listeners off this map.
      const removed = created;
      queueMicrotask(() => removed?.remove());
    };
  }, [container, token, debug, initialView]);

  return { map, styleGeneration, base };
}

/**
 * Calls `onReady` once the map has loaded and drawn a frame with its layers: they are added in
 * their components' effects when the map becomes available, and draw on the map's next render.
 */
function useReadyAfterFirstFrame(map: MapboxMap | null, onReady: (() => void) | undefined) {
  useEffect(() => {
    if (!map || !onReady) return;
    let called = false;
    const ready = () => {
      if (!called) onReady();
      called = true;
    };
    map.once("render", ready);
    map.triggerRepaint();
    return () => {
      map.off("render", ready);
    };
  }, [map, onReady]);
}

interface MapHostProps {
  token: string;
  visible: boolean;
  /** Where the map opens; the default view (the US) without it. */
  initialView?: InitialView;
  /** Called once the map has loaded its first style and drawn a frame with its layers. */
  onReady?: () => void;
  children?: ReactNode;
}

/**
 * The map host (as traccar-web splits its map): the one mapbox-gl instance of the app, its base
 * style (Mapbox's streets with a token, OpenFreeMap's without, the offline geography when neither
 * loads: docs/decisions/0014, 0025) and nothing else. Each
 * layer is a child component that reads the map from MapContext and adds its own sources, layers
 * and events (beacons, fit-bounds, route, replay), so a new layer is one new component rendered
 * inside <MapHost>. A style switch drops the app's layers: `styleGeneration` in the context
 * tells the layer components to add theirs again.
 */
export function MapHost({ token, visible, initialView, onReady, children }: MapHostProps) {
  const container = useRef<HTMLDivElement>(null);
  const [debug] = useState(mapDebugEnabled);
  const view = useRef(initialView);
  view.current = initialView;
  const { map, styleGeneration, base } = useMapInstance(container, token, debug, view);
  useReadyAfterFirstFrame(map, onReady);

  // A map that was hidden has the wrong size until told.
  useEffect(() => {
    if (visible) map?.resize();
  }, [visible, map]);

  const value = useMemo<MapContextValue | null>(
    () => (map ? { map, visible, debug, styleGeneration } : null),
    [map, visible, debug, styleGeneration],
  );

  // The notice and the layers' own controls (the replay bar) are siblings of the map's element,
  // not inside it, so mapbox-gl's pointer handlers (pan, zoom) never see their clicks and drags.
  return (
    <>
      <div
        ref={container}
        className="fleet-map"
        data-testid="fleet-map"
        data-map-ready={map ? true : undefined}
        data-base-map={debug ? base : undefined}
        data-style-generation={debug ? styleGeneration : undefined}
      />
      {base === "fallback" && <StreetMapNotice />}
      <BaseMapAttribution base={base} />
      {value ? <MapContext.Provider value={value}>{children}</MapContext.Provider> : null}
    </>
  );
}
