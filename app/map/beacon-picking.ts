import type { MapMouseEvent, Map as MapboxMap } from "mapbox-gl";
import {
  clusterDiameter,
  latOf,
  lngOf,
  mercatorX,
  mercatorY,
  pickNearest,
  worldSize,
  type Cluster,
} from "./beacon-math";
import type { BeaconGlLayer } from "./beacon-gl-layer";
import { beaconSize } from "./geometry";

/** A pointer position on the map, in CSS pixels from its top left (mapbox-gl's event point). */
type Point = MapMouseEvent["point"];

export type BeaconHit = { cluster: Cluster } | { vehicleId: string } | null;

/** Pixels on screen from the pointer to a Mercator point. */
function screenDistance(map: MapboxMap, pointer: Point, x: number, y: number): number {
  const p = map.project([lngOf(x), latOf(y)]);
  return Math.hypot(p.x - pointer.x, p.y - pointer.y);
}

/**
 * What is under the pointer: a cluster (drawn above the beacons, so it wins), else the nearest
 * beacon whose disc contains it, where the glide draws it at `now`; null for neither.
 */
export function beaconUnderPointer(map: MapboxMap, layer: BeaconGlLayer, pointer: Point, now: number): BeaconHit {
  const size = beaconSize(map.getZoom());
  const clusters = layer.clusterList;
  const c = pickNearest(
    clusters.length,
    (i) => screenDistance(map, pointer, clusters[i]!.x, clusters[i]!.y),
    (i) => clusterDiameter(size, clusters[i]!.count) / 2,
  );
  if (c >= 0) return { cluster: clusters[c]! };
  const slot = beaconSlotUnderPointer(map, layer, pointer, now, size);
  return slot >= 0 ? { vehicleId: layer.slots.idAt(slot) } : null;
}

/** The visible beacon's slot under the pointer, or -1: a cheap box test in Mercator units first, the exact one on screen. */
function beaconSlotUnderPointer(
  map: MapboxMap,
  layer: BeaconGlLayer,
  pointer: Point,
  now: number,
  size: number,
): number {
  const { slots } = layer;
  const at = map.unproject(pointer);
  const mx = mercatorX(at.lng);
  const my = mercatorY(at.lat);
  // A generous box: pitch stretches the far side of the map.
  const reach = (4 * size) / worldSize(map.getZoom());
  return pickNearest(
    slots.size,
    (i) => {
      if (layer.isHidden(i)) return NaN;
      const [x, y] = slots.positionAt(i, now);
      if (Math.abs(x - mx) > reach || Math.abs(y - my) > reach) return NaN;
      return screenDistance(map, pointer, x, y);
    },
    () => size / 2,
  );
}
