import type { Map as MapboxMap } from "mapbox-gl";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { INITIAL_VIEW } from "./geometry";
import { mapDebugEnabled } from "./map-debug";
import { MapContext, type MapContextValue } from "./map-context";
import { OFFLINE_STYLE, OFFLINE_TOKEN, STREETS_STYLE } from "./map-style";

/**
 * The map host (as traccar-web splits its map): the one mapbox-gl instance of the app and
 * nothing else. Each layer is a child component that reads the map from MapContext and adds its
 * own sources, layers and events (beacons, fit-bounds; base geography, routes, replay), so a new
 * layer is one new component rendered inside <MapHost>.
 */
export function MapHost({ token, visible, children }: { token: string; visible: boolean; children?: ReactNode }) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapboxMap | null>(null);
  const [debug] = useState(mapDebugEnabled);

  useEffect(() => {
    let cancelled = false;
    let created: MapboxMap | null = null;
    void import("mapbox-gl").then(({ default: mapboxgl }) => {
      if (cancelled || !container.current) return;
      mapboxgl.accessToken = token || OFFLINE_TOKEN;
      const m = new mapboxgl.Map({
        container: container.current,
        style: token ? STREETS_STYLE : OFFLINE_STYLE,
        center: INITIAL_VIEW.center,
        zoom: INITIAL_VIEW.zoom,
        attributionControl: Boolean(token),
        // Flat, so what fits on screen is what project() says (mapbox-gl 3 may pick a globe),
        // and the beacons' custom layer draws in Web Mercator.
        projection: "mercator",
      });
      created = m;
      if (debug) {
        // The view, for tests and tools (the map itself is one WebGL canvas); on camera stops only.
        const reportView = () => {
          const c = m.getCenter();
          container.current?.setAttribute("data-zoom", m.getZoom().toFixed(2));
          container.current?.setAttribute("data-center", `${c.lng.toFixed(5)},${c.lat.toFixed(5)}`);
        };
        m.on("moveend", reportView);
        m.on("load", reportView);
      }
      m.on("load", () => setMap(m));
    });
    return () => {
      cancelled = true;
      setMap(null);
      // After the layer components' own cleanups (React runs a parent's before its children's),
      // which still take their layers and listeners off this map.
      const removed = created;
      queueMicrotask(() => removed?.remove());
    };
  }, [token, debug]);

  // A map that was hidden has the wrong size until told.
  useEffect(() => {
    if (visible) map?.resize();
  }, [visible, map]);

  const value = useMemo<MapContextValue | null>(() => (map ? { map, visible, debug } : null), [map, visible, debug]);

  return (
    <div ref={container} className="fleet-map" data-testid="fleet-map" data-map-ready={map ? true : undefined}>
      {value ? <MapContext.Provider value={value}>{children}</MapContext.Provider> : null}
    </div>
  );
}
