import type { Map as MapboxMap } from "mapbox-gl";
import { useEffect, useRef } from "react";
import { TELEMETRY_PREFIX, type Telemetry } from "../../shared/fleet/telemetry";
import { useClientStore, type ClientStore, type StoreChange } from "../store";
import { countedPositions, paddingFor, viewArea } from "./camera";
import { boundsOf, fitMaxZoom, outOfView, type LngLat } from "./geometry";
import { useMapContext } from "./map-context";
import { useSelectedVehicle } from "./use-selected-vehicle";

/**
 * docs/product.md section 9's camera rules: when a vehicle that counts (the selected one, or all of them)
 * is out of view, fit them. A report can only put the vehicles it moved out of view, so only
 * those are projected then; a selection change or the map being shown again checks them all.
 * Paused while a timeline event (trip or stop) is shown: the map was fitted to it, and live
 * movements must not take the view back until it is closed.
 */
export function FitBounds({ paused = false }: { paused?: boolean }) {
  const { map, visible, debug } = useMapContext();
  const store = useClientStore();
  const [selected, selectedRef] = useSelectedVehicle();
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    const onChanges = (changes: readonly StoreChange[]) => {
      if (pausedRef.current) return;
      const sel = selectedRef.current;
      const moved: LngLat[] = [];
      for (const c of changes) {
        if (c.op === "del") continue;
        const id = c.key.slice(TELEMETRY_PREFIX.length);
        if (sel && id !== sel) continue;
        const t = c.newValue as Telemetry;
        moved.push({ lng: t.longitude, lat: t.latitude });
      }
      if (moved.length && anyOutOfView(map, moved)) fit(map, store, sel, debug);
    };
    return store.subscribeType("telemetry", onChanges);
  }, [map, store, debug, selectedRef]);

  useEffect(() => {
    // Vehicles may have moved out of view while the map was hidden (it cannot fit at size 0).
    if (!visible || paused) return;
    const points = countedPositions(store, selected);
    if (points.length && anyOutOfView(map, points)) fit(map, store, selected, debug);
  }, [map, store, selected, visible, paused, debug]);

  return null;
}

function anyOutOfView(map: MapboxMap, points: LngLat[]): boolean {
  const { clientWidth: width, clientHeight: height } = map.getContainer();
  if (!width || !height) return false;
  const area = viewArea(width, height);
  return outOfView(
    points.map((p) => map.project([p.lng, p.lat])),
    area.width,
    area.height,
    area.leftInset,
  );
}

/** Fits all vehicles (or the selected one). */
function fit(map: MapboxMap, store: ClientStore, selected: string | null, debug: boolean) {
  const points = countedPositions(store, selected);
  const bounds = boundsOf(points);
  if (!bounds) return;
  const { clientWidth: width, clientHeight: height } = map.getContainer();
  // No cap beyond three vehicles: leave maxZoom out entirely (an explicit undefined makes mapbox-gl's zoom NaN).
  const maxZoom = fitMaxZoom(points.length);
  const padding = paddingFor(width, height);
  map.fitBounds(bounds, { padding, ...(maxZoom === undefined ? {} : { maxZoom }), duration: 600 });
  if (debug) {
    const container = map.getContainer();
    container.setAttribute("data-fits", String(Number(container.getAttribute("data-fits") ?? 0) + 1));
  }
}
