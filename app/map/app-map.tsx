import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useStoreStatus } from "../store";
import { loadFleetMap, loadMapCode, loadMapOverlay } from "./lazy-map";
import { MapSketch, useSketchReady } from "./map-sketch";

// The map, mapbox-gl, their stylesheet and what floats over the map are loaded only once the map
// is first shown, so other pages stay light (docs/decisions/0054).
const FleetMap = lazy(() => loadFleetMap().then((m) => ({ default: m.FleetMap })));
const MapOverlay = lazy(() => loadMapOverlay().then((m) => ({ default: m.MapOverlay })));

/**
 * The signed-in app's one fleet map, mounted on the first visit of /map and kept, hidden, on
 * other pages (docs/decisions/0068). It opens as a sketch of the vehicles (map-sketch.tsx) as
 * soon as the store knows where they are. mapbox-gl is asked for once the store has opened (the
 * sync worker downloaded and running), so on a slow link it shares the connection only with the
 * first pull, not with the app's own code and the sync worker the sketch waits on; the map is
 * created once the sketch has drawn, and takes over, with the sketch's camera, once it has drawn
 * its first frame with the vehicles.
 */
export function AppMap({ token, visible }: { token: string; visible: boolean }) {
  const sketchReady = useSketchReady();
  const [mapReady, setMapReady] = useState(false);
  const onMapReady = useCallback(() => setMapReady(true), []);

  // The same element across this component's own renders (the store opening, the sketch giving way):
  // the vehicle list re-renders only for what it reads, not while its rows are walked with the keys.
  const overlay = useMemo(
    () => (
      <Suspense fallback={null}>
        <MapOverlay />
      </Suspense>
    ),
    [],
  );
  const { hydrated, pulled } = useStoreStatus();
  const storeOpened = hydrated || pulled;
  // Measured against asking at the sketch (ADR 0068): the sketch no later, the map a few hundred ms sooner.
  useEffect(() => {
    if (storeOpened) loadMapCode();
  }, [storeOpened]);

  return (
    <div className="map-host" hidden={!visible}>
      {sketchReady ? (
        <Suspense fallback={null}>
          <FleetMap token={token} visible={visible} onReady={onMapReady} />
        </Suspense>
      ) : null}
      {mapReady ? null : <MapSketch ready={sketchReady} />}
      {visible ? overlay : null}
    </div>
  );
}
