import type { AnyLayer, Map as MapboxMap } from "mapbox-gl";
import { createContext, useContext } from "react";
import { BEACONS_LAYER_ID } from "./beacon-gl-layer";

export interface MapContextValue {
  /** The one mapbox-gl instance, loaded (children render only once it is). */
  map: MapboxMap;
  /** Whether the map is shown (it stays mounted, hidden, on other pages). */
  visible: boolean;
  /** Test and tooling hooks on (?debug=map or window.__fleetOpsDebug = ["map"]). */
  debug: boolean;
  /**
   * Bumped each time a style (street or offline) has loaded. A style switch (the street style
   * failing over to the offline geography, or coming back) drops every source and layer the app
   * added: a layer component depends on this to add its own again.
   */
  styleGeneration: number;
}

export const MapContext = createContext<MapContextValue | null>(null);

/** The map host's context, for a layer component rendered inside <MapHost>. */
export function useMapContext(): MapContextValue {
  const value = useContext(MapContext);
  if (!value) throw new Error("useMapContext: render this layer inside <MapHost>");
  return value;
}

/**
 * Adds another component's layer (base geography, a route line, a replay marker) below the
 * beacons, which stay on top whichever is added first (the beacons layer adds itself last).
 */
export function addLayerBelowBeacons(map: MapboxMap, layer: AnyLayer) {
  map.addLayer(layer, map.getLayer(BEACONS_LAYER_ID) ? BEACONS_LAYER_ID : undefined);
}
