import type { Map as MapboxMap } from "mapbox-gl";
import { latOf, lngOf } from "./beacon-math";
import type { BeaconGlLayer } from "./beacon-gl-layer";
import type { FleetMapDebug } from "./map-debug";

/** window.__fleetMap for tests and the bench: what the beacons layer draws, read where the glide has it now. */
export function beaconsDebugHandle(
  map: MapboxMap,
  layer: BeaconGlLayer,
  selectedId: () => string | null,
): FleetMapDebug {
  const { slots } = layer;
  const drawnAt = (vehicleId: string | null): [number, number] | null => {
    const slot = vehicleId ? slots.slotOf(vehicleId) : undefined;
    return slot === undefined ? null : slots.positionAt(slot, performance.now());
  };
  const onScreen = (x: number, y: number) => {
    const p = map.project([lngOf(x), latOf(y)]);
    return { x: p.x, y: p.y };
  };
  return {
    vehicleCount: () => slots.size,
    selectedPosition: () => {
      const at = drawnAt(selectedId());
      return at ? `${latOf(at[1]).toFixed(6)},${lngOf(at[0]).toFixed(6)}` : null;
    },
    clusters: () => layer.clusterList.map((c) => ({ count: c.count, ...onScreen(c.x, c.y) })),
    beaconAt: (vehicleId) => {
      const at = drawnAt(vehicleId);
      return at ? onScreen(at[0], at[1]) : null;
    },
    frames: () => layer.frames,
    dropGl: () => {
      layer.contextLost();
      layer.repaint();
    },
  };
}
