import type { GeoJSONSource, Map as MapboxMap } from "mapbox-gl";
import { useEffect } from "react";
import { telemetryKey, type Telemetry } from "../../shared/fleet/telemetry";
import { HISTORY_RANGE_MAX_MS } from "../../shared/fleet/vehicle-history";
import { useClientStore, type ClientStore } from "../store";
import { GrowingRoute } from "./growing-route";
import { addLayerBelowBeacons, useMapContext } from "./map-context";
import { startOfDay } from "./replay";
import { fetchTrack } from "./trip-paths";

export const ROUTE_COLOUR = "#6366f1";
const SOURCE = "selected-route";

/**
 * The selected vehicle's path since the start of the day, as a line under its beacon: read
 * once from the history API, then grown by each report the sync brings, its last stretch
 * gliding with the beacon (growing-route.ts) so it always ends at it.
 */
export function RouteLayer({ vehicleId }: { vehicleId: string | null }) {
  const { map, styleGeneration, debug } = useMapContext();
  const store = useClientStore();

  useEffect(() => {
    if (!vehicleId) return;
    addRouteLine(map);
    const container = map.getContainer();
    const controller = new AbortController();
    const route = new GrowingRoute();
    let frame = 0;
    const draw = () => {
      frame = 0;
      (map.getSource(SOURCE) as GeoJSONSource | undefined)?.setData({
        type: "Feature",
        properties: {},
        geometry: { type: "LineString", coordinates: route.lineAt(performance.now()) },
      });
      if (debug) container.setAttribute("data-route-points", String(route.points.length));
      if (route.gliding) frame = requestAnimationFrame(draw);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    const append = (t: Telemetry, animate: boolean) => {
      if (route.append({ lng: t.longitude, lat: t.latitude }, t.recordedAt, animate, performance.now())) schedule();
    };
    void loadTodaysRoute(store, vehicleId, route, append, controller.signal).then(() => {
      if (!controller.signal.aborted) schedule();
    });
    const unsubscribe = store.subscribeGroup(telemetryKey(vehicleId), (changes) => {
      for (const change of changes) if (change.op !== "del") append(change.newValue as Telemetry, true);
    });
    return () => {
      controller.abort();
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
      if (debug) container.removeAttribute("data-route-points");
      removeRouteLine(map);
    };
  }, [map, styleGeneration, vehicleId, store, debug]);

  return null;
}

function addRouteLine(map: MapboxMap) {
  if (map.getSource(SOURCE)) return;
  map.addSource(SOURCE, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  addLayerBelowBeacons(map, {
    id: SOURCE,
    type: "line",
    source: SOURCE,
    layout: { "line-join": "round", "line-cap": "round" },
    paint: { "line-color": ROUTE_COLOUR, "line-width": 4, "line-opacity": 0.85 },
  });
}

function removeRouteLine(map: MapboxMap) {
  if (map.getLayer(SOURCE)) map.removeLayer(SOURCE);
  if (map.getSource(SOURCE)) map.removeSource(SOURCE);
}

/**
 * Today's path from the history API (at most its longest range) before the reports that came
 * meanwhile, then the store's latest report if the history ends before it. The route is a nicety:
 * without the history it starts from the latest report.
 */
async function loadTodaysRoute(
  store: ClientStore,
  vehicleId: string,
  route: GrowingRoute,
  append: (t: Telemetry, animate: boolean) => void,
  signal: AbortSignal,
) {
  const now = Date.now();
  const from = Math.max(startOfDay(now), now - HISTORY_RANGE_MAX_MS);
  try {
    const history = await fetchTrack(vehicleId, from, now, { signal });
    if (signal.aborted) return;
    route.prependHistory(history);
  } catch (error) {
    if (signal.aborted) return;
    console.warn("Route unavailable:", error);
  }
  const current = store.get<Telemetry>("telemetry", vehicleId);
  if (current) append(current, false);
}
