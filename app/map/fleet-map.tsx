import { useNavigate, useSearchParams } from "@remix-run/react";
import type { CircleLayerSpecification, GeoJSONSource, Map as MapboxMap } from "mapbox-gl";
import { useEffect, useRef, useState } from "react";
import type { Telemetry } from "../../shared/telemetry";
import type { Vehicle } from "../../shared/vehicle";
import { useClientStore, type ClientStore } from "../store";
import { beaconSize, boundsOf, fitMaxZoom, fitPadding, glide, GLIDE_MS, INITIAL_VIEW, outOfView, type LngLat } from "./geometry";
import { OFFLINE_TOKEN, offlineStyle, STREETS_STYLE } from "./map-style";
import { loadOfflineGeography } from "./offline-geography";
import { RouteLayer } from "./route-layer";
import { StreetMapNotice } from "./street-map-notice";
import { TripReplay } from "./trip-replay";
import { watchStreetStyle, type BaseMap } from "./style-fallback";

const STROKE = 2;
/** The floating panel: 325 px wide, 12 px from the map's left edge. */
const PANEL_INSET = 12 + 325;
/** Driving (or idling with the ignition on), parked (ignition off), and beacon not reporting. */
const BEACON_COLOURS = { moving: "#16a34a", parked: "#2563eb", inactive: "#a1a1aa" } as const;

const VEHICLE_LAYERS = ["vehicles", "vehicles-moving"] as const;
/** How often the resting vehicles are re-sent to the map at most. */
const RESTING_FLUSH_MS = 1000;

const BEACON_PAINT = {
  // The whole disc, stroke included, is max(35, 50 - 5 × zoom) px across (mapbox-gl draws the
  // stroke outside the radius, so the radius gives way to it).
  "circle-radius": ["interpolate", ["linear"], ["zoom"], 0, ["-", beaconSize(0) / 2, STROKE], 3, ["-", beaconSize(3) / 2, STROKE]],
  "circle-color": ["match", ["get", "state"], "moving", BEACON_COLOURS.moving, "parked", BEACON_COLOURS.parked, BEACON_COLOURS.inactive],
  "circle-stroke-width": STROKE,
  "circle-stroke-color": ["case", ["get", "selected"], "#111827", "#ffffff"],
  // Hidden at rest while the moving layer draws it gliding.
  "circle-opacity": ["case", ["boolean", ["feature-state", "hidden"], false], 0, 1],
  "circle-stroke-opacity": ["case", ["boolean", ["feature-state", "hidden"], false], 0, 1],
} satisfies CircleLayerSpecification["paint"];

interface Beacon {
  id: string;
  from: LngLat;
  to: LngLat;
  startedAt: number;
}

/**
 * The fleet map: one mapbox-gl instance for the app, vehicles drawn in a WebGL circle layer so
 * 10,000 of them stay smooth. The client store tells which telemetry changed; each changed
 * vehicle glides to its new position over 8 s in a requestAnimationFrame loop that only runs
 * while something moves. React does not re-render for movements.
 */
export function FleetMap({ token, visible }: { token: string; visible: boolean }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapboxMap | null>(null);
  const store = useClientStore();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const selected = params.get("vehicleId");
  /** A timeline event shown on the map (trip replay, or a stop's place): the live view steps aside. */
  const shownEvent = selected ? params.get("event") : null;
  const shownEventRef = useRef(shownEvent);
  shownEventRef.current = shownEvent;
  const [mapInstance, setMapInstance] = useState<MapboxMap | null>(null);
  const [ready, setReady] = useState(false);
  /** Bumped each time a style (street or offline) has loaded: the map's own layers are re-added then. */
  const [styleGeneration, setStyleGeneration] = useState(0);
  const [base, setBase] = useState<BaseMap>(token ? "streets" : "offline");
  const beacons = useRef(new Map<string, Beacon>());
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  /** Schedules a frame of the movement loop (set once the layer exists). */
  const redraw = useRef<() => void>(() => {});
  const visibleRef = useRef(visible);
  visibleRef.current = visible;

  useEffect(() => {
    let cancelled = false;
    let map: MapboxMap | null = null;
    let unwatch: (() => void) | undefined;
    void import("mapbox-gl").then(({ default: mapboxgl }) => {
      if (cancelled || !container.current) return;
      mapboxgl.accessToken = token || OFFLINE_TOKEN;
      map = new mapboxgl.Map({
        container: container.current,
        style: token ? STREETS_STYLE : offlineStyle(),
        center: INITIAL_VIEW.center,
        zoom: INITIAL_VIEW.zoom,
        attributionControl: Boolean(token),
        // Flat, so what fits on screen is what project() says (mapbox-gl 3 may pick a globe).
        projection: "mercator",
      });
      // The view, readable by people's tools and by tests (the map itself is one WebGL canvas).
      const reportView = () => {
        const c = map!.getCenter();
        container.current?.setAttribute("data-zoom", map!.getZoom().toFixed(2));
        container.current?.setAttribute("data-center", `${c.lng.toFixed(5)},${c.lat.toFixed(5)}`);
      };
      map.on("moveend", reportView);
      map.on("load", reportView);
      if (token) unwatch = watchStreetStyle(map, token, setBase);
      for (const layer of VEHICLE_LAYERS) {
        map.on("click", layer, (e) => {
            const id = (e.features?.[0] as { properties?: { id?: unknown } } | undefined)?.properties?.id;
          if (typeof id === "string") navigateRef.current(`/map?vehicleId=${encodeURIComponent(id)}`);
        });
        map.on("mouseenter", layer, () => (map!.getCanvas().style.cursor = "pointer"));
        map.on("mouseleave", layer, () => (map!.getCanvas().style.cursor = ""));
      }
      // Each style that loads (the first, the offline fallback, the street style coming back)
      // starts without the app's layers: they are added again and re-seeded.
      map.on("style.load", () => {
        // Vehicles at rest and vehicles gliding live in two sources: every animation frame
        // re-sends only the gliding ones, so a large fleet with a few movers stays cheap.
        for (const layer of VEHICLE_LAYERS) {
          if (map!.getSource(layer)) continue;
          map!.addSource(layer, { type: "geojson", data: { type: "FeatureCollection", features: [] }, promoteId: "id" });
          map!.addLayer({ id: layer, type: "circle", source: layer, paint: BEACON_PAINT });
        }
        // The offline geography (if this is the offline style) once the vehicles are drawn.
        map!.once("idle", () => loadOfflineGeography(map!));
        reportView();
        mapRef.current = map;
        setMapInstance(map);
        setReady(true);
        setStyleGeneration((g) => g + 1);
      });
    });
    return () => {
      cancelled = true;
      unwatch?.();
      map?.remove();
      mapRef.current = null;
      setMapInstance(null);
    };
  }, [token]);

  // Movements: seed every known vehicle, then glide the ones whose telemetry changes.
  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map) return;
    let frame = 0;
    let updates = 0;
    const now = () => performance.now();
    const setFeatures = (layer: (typeof VEHICLE_LAYERS)[number], features: VehicleFeature[]) =>
      (map.getSource(layer) as GeoJSONSource | undefined)?.setData({ type: "FeatureCollection", features });
    // Every vehicle is in the resting source at its destination, re-sent to the map at most once
    // a second (re-tiling thousands of points every frame is what made large fleets stutter).
    // While a vehicle glides, feature state hides it there and the small moving source, re-sent
    // every frame, draws it instead. After its glide it stays in the moving source until a flush
    // has certainly been drawn (the next one), so it never flickers back to where it was.
    const resting = new Map<string, VehicleFeature>();
    let restingChanged = true;
    let lastFlush = -Infinity;
    const gliding = new Set<string>();
    let settled = new Set<string>();
    let flushed = new Set<string>();
    let movingDrawn = false;
    let drawnSelection: string | null = null;
    const hide = (id: string, hidden: boolean) => map.setFeatureState({ source: "vehicles", id }, { hidden });

    const rest = (id: string) => {
      const b = beacons.current.get(id);
      if (!b) return;
      resting.set(id, feature(store, id, b.to, id === drawnSelection));
      restingChanged = true;
    };
    const place = (id: string, t: Telemetry, animate: boolean) => {
      const to = { lng: t.longitude, lat: t.latitude };
      const current = beacons.current.get(id);
      const from = current && animate ? glide(current.from, current.to, now() - current.startedAt) : to;
      beacons.current.set(id, { id, from, to, startedAt: now() });
      rest(id);
      if (from.lng !== to.lng || from.lat !== to.lat) {
        if (!gliding.has(id) && !settled.has(id) && !flushed.has(id)) hide(id, true);
        gliding.add(id);
        settled.delete(id);
        flushed.delete(id);
      }
    };
    const remove = (id: string) => {
      beacons.current.delete(id);
      gliding.delete(id);
      settled.delete(id);
      flushed.delete(id);
      if (resting.delete(id)) restingChanged = true;
    };
    for (const id of store.ids("telemetry")) place(id, store.get<Telemetry>("telemetry", id)!, false);

    const render = () => {
      frame = 0;
      // Hidden on another page: no drawing; positions are computed from time, so the next
      // frame after the map is shown again puts every beacon where it should be.
      if (!visibleRef.current) return;
      const t = now();
      if (selectedRef.current !== drawnSelection) {
        const previous = drawnSelection;
        drawnSelection = selectedRef.current;
        for (const id of [previous, drawnSelection]) if (id) rest(id);
      }
      const moving: VehicleFeature[] = [];
      for (const id of gliding) {
        const b = beacons.current.get(id)!;
        const elapsed = t - b.startedAt;
        if (elapsed >= GLIDE_MS) {
          gliding.delete(id);
          settled.add(id);
        } else moving.push(feature(store, id, glide(b.from, b.to, elapsed), id === drawnSelection));
      }
      if ((restingChanged || settled.size || flushed.size) && t - lastFlush >= RESTING_FLUSH_MS) {
        for (const id of flushed) hide(id, false);
        flushed = settled;
        settled = new Set();
        if (restingChanged) setFeatures("vehicles", [...resting.values()]);
        restingChanged = false;
        lastFlush = t;
      }
      for (const id of [...settled, ...flushed]) {
        const b = beacons.current.get(id)!;
        moving.push(feature(store, id, b.to, id === drawnSelection));
      }
      if (moving.length || movingDrawn) setFeatures("vehicles-moving", moving);
      movingDrawn = moving.length > 0;
      container.current?.setAttribute("data-vehicle-count", String(resting.size));
      const sel = drawnSelection ? beacons.current.get(drawnSelection) : undefined;
      if (sel) {
        const p = glide(sel.from, sel.to, t - sel.startedAt);
        container.current?.setAttribute("data-selected-position", `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`);
      }
      if (gliding.size || settled.size || flushed.size || restingChanged) frame = requestAnimationFrame(render);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(render);
    };
    schedule();
    fitIfNeeded(map, store, selectedRef.current, shownEventRef.current);
    const unsubscribe = store.subscribe((changes) => {
      let touched = false;
      for (const change of changes) {
        if (change.key.startsWith("telemetry/")) {
          const id = change.key.slice("telemetry/".length);
          if (change.op === "del") remove(id);
          else place(id, change.newValue as Telemetry, change.op === "change");
          touched = true;
        } else if (change.key.startsWith("vehicle/")) {
          // A name or beacon status change: only its colour may differ.
          const id = change.key.slice("vehicle/".length);
          if (resting.has(id)) rest(id);
          touched = true;
        }
      }
      if (touched) {
        schedule();
        fitIfNeeded(map, store, selectedRef.current, shownEventRef.current);
        // How many changes the map has taken in: lets a test know a movement was seen.
        container.current?.setAttribute("data-updates", String(++updates));
      }
    });
    redraw.current = schedule;
    return () => {
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ready, store, styleGeneration]);

  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map) return;
    redraw.current();
    fitIfNeeded(map, store, selected, shownEventRef.current);
  }, [selected, ready, store]);

  // A map that was hidden has the wrong size until told.
  useEffect(() => {
    const map = mapRef.current;
    if (!visible || !map) return;
    map.resize();
    redraw.current();
    // Vehicles may have moved out of view while the map was hidden (it cannot fit at size 0).
    fitIfNeeded(map, store, selectedRef.current, shownEventRef.current);
  }, [visible, store]);

  return (
    <>
      <div ref={container} className="fleet-map" data-testid="fleet-map" data-map-ready={ready || undefined} data-base-map={base} />
      {base === "fallback" && <StreetMapNotice />}
      {mapInstance && <RouteLayer map={mapInstance} styleGeneration={styleGeneration} vehicleId={shownEvent ? null : selected} />}
      {mapInstance && selected && shownEvent && (
        <TripReplay
          map={mapInstance}
          styleGeneration={styleGeneration}
          vehicleId={selected}
          eventId={shownEvent}
          onClose={() => navigate(`/map?vehicleId=${encodeURIComponent(selected)}`)}
        />
      )}
    </>
  );
}

type VehicleFeature = ReturnType<typeof feature>;

function feature(store: ClientStore, id: string, p: LngLat, selected: boolean) {
  const vehicle = store.get<Vehicle>("vehicle", id);
  const status = store.get<Telemetry>("telemetry", id)?.status;
  const state = vehicle?.beaconStatus !== "ACTIVE" ? "inactive" : status === "off" ? "parked" : "moving";
  return {
    type: "Feature" as const,
    geometry: { type: "Point" as const, coordinates: [p.lng, p.lat] },
    properties: { id, state, selected },
  };
}

/** Fits all vehicles (or the selected one) when any of them is out of view. */
function fitIfNeeded(map: MapboxMap, store: ClientStore, selected: string | null, shownEvent: string | null) {
  // A trip or stop on the map has been fitted to; live movements do not take the view back.
  if (shownEvent) return;
  const ids = selected ? [selected] : store.ids("telemetry");
  const points = ids.map((id) => store.get<Telemetry>("telemetry", id)).filter((t): t is Telemetry => Boolean(t));
  const lngLats = points.map((t) => ({ lng: t.longitude, lat: t.latitude }));
  const bounds = boundsOf(lngLats);
  if (!bounds) return;
  const { clientWidth: width, clientHeight: height } = map.getContainer();
  if (!width || !height) return;
  const projected = lngLats.map((p) => map.project([p.lng, p.lat]));
  // The floating panel (list or selected vehicle) covers the left of the map either way.
  if (!outOfView(projected, width, height, PANEL_INSET)) return;
  // No cap beyond three vehicles: leave maxZoom out entirely (an explicit undefined makes mapbox-gl's zoom NaN).
  const maxZoom = fitMaxZoom(lngLats.length);
  map.fitBounds(bounds, { padding: fitPadding(width, height), ...(maxZoom === undefined ? {} : { maxZoom }), duration: 600 });
  const container = map.getContainer();
  container.setAttribute("data-fits", String(Number(container.getAttribute("data-fits") ?? 0) + 1));
}
