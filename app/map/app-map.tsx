import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { loadFleetMap, loadMapCode, loadMapOverlay } from "./lazy-map";
import { MapSketch, useSketchReady } from "./map-sketch";

// The map, mapbox-gl, their stylesheet and what floats over the map are loaded only once the map
// is first shown, so other pages stay light (docs/decisions/0054).
const FleetMap = lazy(() => loadFleetMap().then((m) => ({ default: m.FleetMap })));
const MapOverlay = lazy(() => loadMapOverlay().then((m) => ({ default: m.MapOverlay })));

/**
 * The signed-in app's one fleet map, mounted on the first visit of /map and kept, hidden, on
 * other pages. It opens as a sketch of the vehicles (map-sketch.tsx) as soon as the store knows
 * where they are; only then is mapbox-gl asked for, so on a slow link it does not share the
 * connection with the app's own code, the sync worker and the first pull that the sketch waits
 * on (docs/decisions/0068). The map, once it has drawn its first frame with the vehicles, takes over with the sketch's camera.
 */
export function AppMap({ token, visible }: { token: string; visible: boolean }) {
  const sketchReady = useSketchReady();
  const [mapReady, setMapReady] = useState(false);
  const onMapReady = useCallback(() => setMapReady(true), []);

  useEffect(() => {
    if (sketchReady) loadMapCode();
  }, [sketchReady]);

  return (
    <div className="map-host" hidden={!visible}>
      {sketchReady ? (
        <Suspense fallback={null}>
          <FleetMap token={token} visible={visible} onReady={onMapReady} />
        </Suspense>
      ) : null}
      {mapReady ? null : <MapSketch />}
      {visible ? (
        <Suspense fallback={null}>
          <MapOverlay />
        </Suspense>
      ) : null}
    </div>
  );
}
