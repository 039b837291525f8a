import { useNavigate, useSearchParams } from "@remix-run/react";
import type { MapMouseEvent } from "mapbox-gl";
import { useEffect, useRef } from "react";
import type { Telemetry } from "../../shared/telemetry";
import type { Vehicle } from "../../shared/vehicle";
import { vehicleState } from "../../shared/vehicle-state";
import { useClientStore, type ClientStore, type StoreChange } from "../store";
import { clusterBeacons, clusterDiameter, latOf, lngOf, mercatorX, mercatorY, pickNearest, worldSize } from "./beacon-math";
import { BeaconGlLayer, BEACONS_LAYER_ID } from "./beacon-gl-layer";
import type { BeaconState } from "./beacon-slots";
import { beaconSize } from "./geometry";
import { useMapContext } from "./map-context";

/** Beacons in one cell of this many pixels at a whole zoom level may be aggregated… */
const CLUSTER_CELL_PX = 60;
/** …when at least this many share it (a few overlapping beacons stay readable as they are)… */
const CLUSTER_MIN = 5;
/** …and only below this zoom (street level shows every vehicle). */
const CLUSTER_MAX_ZOOM = 15;
/** Clusters follow reports at most this often (they use destinations, not glide positions). */
const CLUSTER_REFRESH_MS = 1000;

/** Driving (or idling with the ignition on), parked (ignition off), or beacon not reporting: shared/vehicle-state.ts's rule. */
function beaconState(store: ClientStore, id: string, telemetry?: Telemetry): BeaconState {
  return vehicleState(store.get<Vehicle>("vehicle", id)?.beaconStatus, (telemetry ?? store.get<Telemetry>("telemetry", id))?.status);
}

/**
 * The vehicles on the map: one custom WebGL layer (BeaconGlLayer) fed by the client store. A
 * report rewrites that vehicle's slot only; React never re-renders for movements. Clicks and
 * hover find the beacon under the pointer on the CPU with the same glide maths as the shader.
 */
export function BeaconsLayer() {
  const { map, visible, debug } = useMapContext();
  const store = useClientStore();
  const [params] = useSearchParams();
  const selected = params.get("vehicleId");
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const layerRef = useRef<BeaconGlLayer | null>(null);
  const reclusterRef = useRef<() => void>(() => {});
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const visibleRef = useRef(visible);
  visibleRef.current = visible;

  useEffect(() => {
    const layer = new BeaconGlLayer();
    layer.paused = !visibleRef.current;
    layerRef.current = layer;
    const slots = layer.slots;
    const container = map.getContainer();
    let updates = 0;
    // The bench measures the layer drawing every beacon too: debug flag "map-no-clusters".
    const clustering = !(debug && window.__fleetOpsDebug?.includes("map-no-clusters"));

    // On top of every other layer (see addLayerBelowBeacons); again after a style change.
    const add = () => {
      if (!map.getLayer(BEACONS_LAYER_ID)) map.addLayer(layer);
    };
    add();
    map.on("style.load", add);

    // --- clusters: recomputed on whole-zoom changes, selection changes and (throttled) reports.
    let clusterZoom = -1;
    let clusterTimer: ReturnType<typeof setTimeout> | undefined;
    let lastCluster = -Infinity;
    const recluster = () => {
      clusterTimer = undefined;
      lastCluster = performance.now();
      const zoom = Math.floor(map.getZoom());
      clusterZoom = zoom;
      if (zoom >= CLUSTER_MAX_ZOOM || !clustering) {
        if (layer.clusterList.length) layer.setClusters([], new Uint8Array(0));
        return;
      }
      const selectedSlot = selectedRef.current ? slots.slotOf(selectedRef.current) : undefined;
      const { clusters, hidden } = clusterBeacons(
        slots.size,
        (i) => slots.toX(i),
        (i) => slots.toY(i),
        zoom,
        CLUSTER_CELL_PX,
        CLUSTER_MIN,
        (i) => i === selectedSlot,
      );
      if (clusters.length || layer.clusterList.length) layer.setClusters(clusters, hidden);
    };
    const scheduleRecluster = () => {
      if (clusterTimer) return;
      clusterTimer = setTimeout(recluster, Math.max(0, lastCluster + CLUSTER_REFRESH_MS - performance.now()));
    };
    reclusterRef.current = recluster;
    const onZoom = () => {
      if (Math.floor(map.getZoom()) !== clusterZoom) recluster();
    };
    map.on("zoomend", onZoom);

    // --- data: seed every known vehicle, then only what changed.
    const now = () => performance.now();
    const place = (id: string, t: Telemetry, animate: boolean) => {
      slots.place(id, mercatorX(t.longitude), mercatorY(t.latitude), beaconState(store, id, t), now(), animate);
      layer.noteGlide(slots.slotOf(id)!);
    };
    for (const id of store.ids("telemetry")) place(id, store.get<Telemetry>("telemetry", id)!, false);
    slots.select(selectedRef.current);
    recluster();
    layer.repaint();

    const onChanges = (changes: readonly StoreChange[]) => {
      for (const change of changes) {
        const slash = change.key.indexOf("/");
        const id = change.key.slice(slash + 1);
        if (change.key.startsWith("telemetry/")) {
          if (change.op === "del") slots.remove(id);
          else place(id, change.newValue as Telemetry, change.op === "change");
        } else if (slots.has(id)) {
          // A vehicle's beacon status: only its colour may differ.
          slots.setState(id, beaconState(store, id));
        }
      }
      layer.repaint();
      scheduleRecluster();
      if (debug) {
        container.setAttribute("data-vehicle-count", String(slots.size));
        // How many change lists the map has taken in: lets a test know a movement was seen.
        container.setAttribute("data-updates", String(++updates));
      }
    };
    const unsubscribe = [store.subscribeType("telemetry", onChanges), store.subscribeType("vehicle", onChanges)];
    if (debug) container.setAttribute("data-vehicle-count", String(slots.size));

    // --- picking: the beacon (or cluster) under the pointer, drawn where the glide has it now.
    const pick = (e: MapMouseEvent): { cluster: { x: number; y: number } } | { vehicleId: string } | null => {
      const zoom = map.getZoom();
      const size = beaconSize(zoom);
      const px = e.point;
      const distanceTo = (x: number, y: number) => {
        const p = map.project([lngOf(x), latOf(y)]);
        return Math.hypot(p.x - px.x, p.y - px.y);
      };
      // Clusters are drawn above the beacons: they win.
      const clusters = layer.clusterList;
      const c = pickNearest(clusters.length, (i) => distanceTo(clusters[i]!.x, clusters[i]!.y), (i) => clusterDiameter(size, clusters[i]!.count) / 2);
      if (c >= 0) return { cluster: clusters[c]! };
      // Cheap prefilter in Mercator units (a generous box: pitch stretches the far side), exact test on screen.
      const at = map.unproject(px);
      const mx = mercatorX(at.lng);
      const my = mercatorY(at.lat);
      const reach = (4 * size) / worldSize(zoom);
      const t = now();
      const found = pickNearest(
        slots.size,
        (i) => {
          if (layer.isHidden(i)) return NaN;
          const [x, y] = slots.positionAt(i, t);
          if (Math.abs(x - mx) > reach || Math.abs(y - my) > reach) return NaN;
          return distanceTo(x, y);
        },
        () => size / 2,
      );
      return found >= 0 ? { vehicleId: slots.idAt(found) } : null;
    };
    const onClick = (e: MapMouseEvent) => {
      const hit = pick(e);
      if (!hit) return;
      if ("vehicleId" in hit) navigateRef.current(`/map?vehicleId=${encodeURIComponent(hit.vehicleId)}`);
      else map.easeTo({ center: [lngOf(hit.cluster.x), latOf(hit.cluster.y)], zoom: Math.min(CLUSTER_MAX_ZOOM, map.getZoom() + 2) });
    };
    let hoverFrame = 0;
    let hoverEvent: MapMouseEvent | null = null;
    const onMove = (e: MapMouseEvent) => {
      hoverEvent = e;
      if (hoverFrame) return;
      // At most one pick per frame however fast the mouse moves.
      hoverFrame = requestAnimationFrame(() => {
        hoverFrame = 0;
        if (hoverEvent) map.getCanvas().style.cursor = pick(hoverEvent) ? "pointer" : "";
      });
    };
    map.on("click", onClick);
    map.on("mousemove", onMove);

    // --- a lost WebGL context: the layer rebuilds its GL objects from the CPU copy on the next frame.
    const onLost = () => layer.contextLost();
    const onRestored = () => layer.repaint();
    map.on("webglcontextlost", onLost);
    map.on("webglcontextrestored", onRestored);

    if (debug) {
      window.__fleetMap = {
        vehicleCount: () => slots.size,
        selectedPosition: () => {
          const slot = selectedRef.current ? slots.slotOf(selectedRef.current) : undefined;
          if (slot === undefined) return null;
          const [x, y] = slots.positionAt(slot, now());
          return `${latOf(y).toFixed(6)},${lngOf(x).toFixed(6)}`;
        },
        clusters: () =>
          layer.clusterList.map((c) => {
            const p = map.project([lngOf(c.x), latOf(c.y)]);
            return { count: c.count, x: p.x, y: p.y };
          }),
        beaconAt: (vehicleId) => {
          const slot = slots.slotOf(vehicleId);
          if (slot === undefined) return null;
          const [x, y] = slots.positionAt(slot, now());
          const p = map.project([lngOf(x), latOf(y)]);
          return { x: p.x, y: p.y };
        },
        frames: () => layer.frames,
        dropGl: () => {
          layer.contextLost();
          layer.repaint();
        },
      };
    }

    return () => {
      for (const stop of unsubscribe) stop();
      if (clusterTimer) clearTimeout(clusterTimer);
      if (hoverFrame) cancelAnimationFrame(hoverFrame);
      map.off("style.load", add);
      map.off("zoomend", onZoom);
      map.off("click", onClick);
      map.off("mousemove", onMove);
      map.off("webglcontextlost", onLost);
      map.off("webglcontextrestored", onRestored);
      if (map.getLayer(BEACONS_LAYER_ID)) map.removeLayer(BEACONS_LAYER_ID);
      if (debug) delete window.__fleetMap;
      layerRef.current = null;
    };
  }, [map, store, debug]);

  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.slots.select(selected);
    reclusterRef.current();
    layer.repaint();
  }, [selected]);

  // Hidden on another page: no frames; glides are computed from time, so the first frame after
  // the map is shown again puts every beacon where it should be.
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.paused = !visible;
    if (visible) layer.repaint();
  }, [visible]);

  return null;
}
