import type { GeoJSONSource } from "mapbox-gl";
import { useEffect } from "react";
import { HISTORY_RANGE_MAX_MS } from "../../shared/vehicle-history";
import { telemetryKey, type Telemetry } from "../../shared/telemetry";
import { useClientStore } from "../store";
import { glide, GLIDE_MS, type LngLat } from "./geometry";
import { addLayerBelowBeacons, useMapContext } from "./map-context";
import { startOfDay } from "./replay";
import { fetchTrack } from "./track";

export const ROUTE_COLOUR = "#6366f1";
const SOURCE = "selected-route";

/**
 * The selected vehicle's path since the start of the day, as a line under its beacon: read
 * once from the history API, then grown by each report the sync brings, its last stretch
 * gliding with the beacon (same glide, started by the same change) so it always ends at it.
 */
export function RouteLayer({ vehicleId }: { vehicleId: string | null }) {
  const { map, styleGeneration, debug } = useMapContext();
  const store = useClientStore();

  useEffect(() => {
    if (!vehicleId) return;
    if (!map.getSource(SOURCE)) {
      map.addSource(SOURCE, {
        type: "geojson",
        data: { type: "FeatureCollection", features: [] },
      });
      addLayerBelowBeacons(map, {
        id: SOURCE,
        type: "line",
        source: SOURCE,
        layout: { "line-join": "round", "line-cap": "round" },
        paint: {
          "line-color": ROUTE_COLOUR,
          "line-width": 4,
          "line-opacity": 0.85,
        },
      });
    }
    const container = map.getContainer();
    const controller = new AbortController();
    let path: LngLat[] = [];
    let lastTime = -Infinity;
    let gliding: { from: LngLat; to: LngLat; startedAt: number } | null = null;
    let frame = 0;

    const draw = () => {
      frame = 0;
      const now = performance.now();
      const coordinates = path.map((p) => [p.lng, p.lat]);
      if (gliding) {
        const end = glide(gliding.from, gliding.to, now - gliding.startedAt);
        coordinates[coordinates.length - 1] = [end.lng, end.lat];
        if (now - gliding.startedAt >= GLIDE_MS) gliding = null;
      }
      (map.getSource(SOURCE) as GeoJSONSource | undefined)?.setData({
        type: "Feature",
        properties: {},
        geometry: {
          type: "LineString",
          coordinates: coordinates.length === 1 ? [coordinates[0]!, coordinates[0]!] : coordinates,
        },
      });
      if (debug) container.setAttribute("data-route-points", String(path.length));
      if (gliding) frame = requestAnimationFrame(draw);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    const append = (t: Telemetry, animate: boolean) => {
      if (t.recordedAt <= lastTime) return;
      const to = { lng: t.longitude, lat: t.latitude };
      const from = path[path.length - 1];
      path = [...path, to];
      lastTime = t.recordedAt;
      gliding = animate && from ? { from, to, startedAt: performance.now() } : null;
      schedule();
    };

    const now = Date.now();
    const from = Math.max(startOfDay(now), now - HISTORY_RANGE_MAX_MS);
    fetchTrack(vehicleId, from, now, { signal: controller.signal })
      .then((points) => {
        // Reports that arrived while the request was out are newer than its answer: kept.
        const later = path;
        path = [...points.map((p) => ({ lng: p.lng, lat: p.lat })), ...later];
        lastTime = Math.max(lastTime, points.at(-1)?.t ?? -Infinity);
        const current = store.get<Telemetry>("telemetry", vehicleId);
        if (current && current.recordedAt > lastTime) append(current, false);
        schedule();
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // The route is a nicety: without the history it starts from the latest report.
        console.warn("Route unavailable:", error);
        const current = store.get<Telemetry>("telemetry", vehicleId);
        if (current) append(current, false);
      });
    const unsubscribe = store.subscribe((changes) => {
      for (const change of changes) {
        if (change.key === telemetryKey(vehicleId) && change.op !== "del") append(change.newValue as Telemetry, true);
      }
    });

    return () => {
      controller.abort();
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
      if (debug) container.removeAttribute("data-route-points");
      if (map.getLayer(SOURCE)) map.removeLayer(SOURCE);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map, styleGeneration, vehicleId, store, debug]);

  return null;
}
