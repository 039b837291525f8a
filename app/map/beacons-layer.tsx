import { useNavigate } from "@remix-run/react";
import type { MapMouseEvent, Map as MapboxMap } from "mapbox-gl";
import { useEffect, useMemo, useRef } from "react";
import { TELEMETRY_PREFIX, type Telemetry } from "../../shared/fleet/telemetry";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { vehicleState } from "../../shared/fleet/vehicle-state";
import { useClientStore, type ClientStore, type StoreChange } from "../store";
import { BeaconClusterer, CLUSTER_MAX_ZOOM } from "./beacon-clusters";
import { beaconsDebugHandle } from "./beacon-debug";
import { BeaconGlLayer, BEACONS_LAYER_ID } from "./beacon-gl-layer";
import { latOf, lngOf, mercatorX, mercatorY } from "./beacon-math";
import { beaconUnderPointer } from "./beacon-picking";
import type { BeaconState } from "./beacon-slots";
import { useMapContext } from "./map-context";
import { useSelectedVehicle } from "./use-selected-vehicle";

/**
 * The vehicles on the map: one custom WebGL layer (BeaconGlLayer) fed by the client store. A
 * report rewrites that vehicle's slot only; React never re-renders for movements. Clicks and
 * hover find the beacon under the pointer on the CPU with the same glide maths as the shader.
 * A new store (another workspace) or map starts a new layer: nothing of the old one is kept.
 */
export function BeaconsLayer() {
  const { map, visible, debug } = useMapContext();
  const store = useClientStore();
  const [selected, selectedRef] = useSelectedVehicle();

  const layer = useMemo(() => new BeaconGlLayer(), [map, store, debug]); // eslint-disable-line react-hooks/exhaustive-deps -- a fresh layer per store
  const clusterer = useMemo(() => {
    // The bench measures the layer drawing every beacon too: debug flag "map-no-clusters".
    const enabled = !(debug && window.__fleetOpsDebug?.includes("map-no-clusters"));
    return new BeaconClusterer(map, layer, () => selectedRef.current, enabled);
  }, [map, layer, debug, selectedRef]);

  useLayerOnTopOfMap(map, layer);
  useClustersFollowZoom(map, clusterer);
  useBeaconsFollowStore(map, store, layer, clusterer, debug, selectedRef);
  useBeaconPicking(map, layer);
  useSelectedBeaconShown(layer, clusterer, selected);
  useNoFramesWhileHidden(layer, visible);
  useDebugHandle(map, layer, debug, selectedRef);
  return null;
}

/** Driving (or idling with the ignition on), parked (ignition off), or beacon not reporting: shared/fleet/vehicle-state.ts's rule. */
function beaconState(store: ClientStore, id: string, telemetry?: Telemetry): BeaconState {
  return vehicleState(
    store.get<Vehicle>("vehicle", id)?.beaconStatus,
    (telemetry ?? store.get<Telemetry>("telemetry", id))?.status,
  );
}

/**
 * The layer stays on top of every other layer (see addLayerBelowBeacons), added again after a
 * style change; a lost WebGL context makes it rebuild its GL objects from the CPU copy on the
 * next frame.
 */
function useLayerOnTopOfMap(map: MapboxMap, layer: BeaconGlLayer) {
  useEffect(() => {
    const add = () => {
      if (!map.getLayer(BEACONS_LAYER_ID)) map.addLayer(layer);
    };
    const onLost = () => layer.contextLost();
    const onRestored = () => layer.repaint();
    add();
    map.on("style.load", add);
    map.on("webglcontextlost", onLost);
    map.on("webglcontextrestored", onRestored);
    return () => {
      map.off("style.load", add);
      map.off("webglcontextlost", onLost);
      map.off("webglcontextrestored", onRestored);
      if (map.getLayer(BEACONS_LAYER_ID)) map.removeLayer(BEACONS_LAYER_ID);
    };
  }, [map, layer]);
}

/** Clusters are per whole zoom level: a new level reclusters; a pending recluster dies with the layer. */
function useClustersFollowZoom(map: MapboxMap, clusterer: BeaconClusterer) {
  useEffect(() => {
    map.on("zoomend", clusterer.onZoomEnd);
    return () => {
      map.off("zoomend", clusterer.onZoomEnd);
      clusterer.dispose();
    };
  }, [map, clusterer]);
}

/**
 * Every vehicle with telemetry has a beacon where its latest report puts it: seeded from the store,
 * then moved (gliding), recoloured or removed by each change list, telemetry or vehicle.
 */
function useBeaconsFollowStore(
  map: MapboxMap,
  store: ClientStore,
  layer: BeaconGlLayer,
  clusterer: BeaconClusterer,
  debug: boolean,
  selectedRef: { readonly current: string | null },
) {
  useEffect(() => {
    const container = map.getContainer();
    let updates = 0;
    for (const id of store.ids("telemetry"))
      placeBeacon(store, layer, id, store.get<Telemetry>("telemetry", id)!, false);
    layer.slots.select(selectedRef.current);
    clusterer.recluster();
    layer.repaint();
    const onChanges = (changes: readonly StoreChange[]) => {
      applyBeaconChanges(store, layer, changes);
      layer.repaint();
      clusterer.schedule();
      if (debug) {
        container.setAttribute("data-vehicle-count", String(layer.slots.size));
        // How many change lists the map has taken in: lets a test know a movement was seen.
        container.setAttribute("data-updates", String(++updates));
      }
    };
    const unsubscribe = [store.subscribeType("telemetry", onChanges), store.subscribeType("vehicle", onChanges)];
    if (debug) container.setAttribute("data-vehicle-count", String(layer.slots.size));
    return () => {
      for (const stop of unsubscribe) stop();
    };
  }, [map, store, layer, clusterer, debug, selectedRef]);
}

/** Puts a vehicle's beacon where a report says, gliding there from where it is drawn when `animate`. */
function placeBeacon(store: ClientStore, layer: BeaconGlLayer, id: string, t: Telemetry, animate: boolean) {
  const { slots } = layer;
  slots.place(id, mercatorX(t.longitude), mercatorY(t.latitude), beaconState(store, id, t), performance.now(), animate);
  layer.noteGlide(slots.slotOf(id)!);
}

function applyBeaconChanges(store: ClientStore, layer: BeaconGlLayer, changes: readonly StoreChange[]) {
  const { slots } = layer;
  for (const change of changes) {
    const id = change.key.slice(change.key.indexOf("/") + 1);
    if (change.key.startsWith(TELEMETRY_PREFIX)) {
      if (change.op === "del") slots.remove(id);
      else placeBeacon(store, layer, id, change.newValue as Telemetry, change.op === "change");
    } else if (slots.has(id)) {
      // A vehicle's beacon status: only its colour may differ.
      slots.setState(id, beaconState(store, id));
    }
  }
}

/**
 * A click on a beacon selects its vehicle, on a cluster zooms into it; hovering either shows the
 * pointer cursor, picked at most once a frame however fast the mouse moves.
 */
function useBeaconPicking(map: MapboxMap, layer: BeaconGlLayer) {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    const pick = (e: MapMouseEvent) => beaconUnderPointer(map, layer, e.point, performance.now());
    const onClick = (e: MapMouseEvent) => {
      const hit = pick(e);
      if (!hit) return;
      if ("vehicleId" in hit) navigateRef.current(`/map?vehicleId=${encodeURIComponent(hit.vehicleId)}`);
      else
        map.easeTo({
          center: [lngOf(hit.cluster.x), latOf(hit.cluster.y)],
          zoom: Math.min(CLUSTER_MAX_ZOOM, map.getZoom() + 2),
        });
    };
    let hoverFrame = 0;
    let hoverEvent: MapMouseEvent | null = null;
    const onMove = (e: MapMouseEvent) => {
      hoverEvent = e;
      if (hoverFrame) return;
      hoverFrame = requestAnimationFrame(() => {
        hoverFrame = 0;
        if (hoverEvent) map.getCanvas().style.cursor = pick(hoverEvent) ? "pointer" : "";
      });
    };
    map.on("click", onClick);
    map.on("mousemove", onMove);
    return () => {
      if (hoverFrame) cancelAnimationFrame(hoverFrame);
      map.off("click", onClick);
      map.off("mousemove", onMove);
    };
  }, [map, layer]);
}

/** The selected vehicle's beacon is drawn ringed and never inside a cluster. */
function useSelectedBeaconShown(layer: BeaconGlLayer, clusterer: BeaconClusterer, selected: string | null) {
  useEffect(() => {
    layer.slots.select(selected);
    clusterer.recluster();
    layer.repaint();
  }, [layer, clusterer, selected]);
}

/**
 * Hidden on another page: no frames; glides are computed from time, so the first frame after
 * the map is shown again puts every beacon where it should be.
 */
function useNoFramesWhileHidden(layer: BeaconGlLayer, visible: boolean) {
  useEffect(() => {
    layer.paused = !visible;
    if (visible) layer.repaint();
  }, [layer, visible]);
}

/** window.__fleetMap while the map's debug hooks are on (tests, the bench). */
function useDebugHandle(
  map: MapboxMap,
  layer: BeaconGlLayer,
  debug: boolean,
  selectedRef: { readonly current: string | null },
) {
  useEffect(() => {
    if (!debug) return;
    window.__fleetMap = beaconsDebugHandle(map, layer, () => selectedRef.current);
    return () => {
      delete window.__fleetMap;
    };
  }, [map, layer, debug, selectedRef]);
}
