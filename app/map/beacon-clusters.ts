import type { Map as MapboxMap } from "mapbox-gl";
import { clusterBeacons } from "./beacon-math";
import type { BeaconGlLayer } from "./beacon-gl-layer";

/** Beacons in one cell of this many pixels at a whole zoom level may be aggregated… */
const CLUSTER_CELL_PX = 60;
/** …when at least this many share it (a few overlapping beacons stay readable as they are)… */
const CLUSTER_MIN = 5;
/** …and only below this zoom (street level shows every vehicle). */
export const CLUSTER_MAX_ZOOM = 15;
/** Clusters follow reports at most this often (they use destinations, not glide positions). */
const CLUSTER_REFRESH_MS = 1000;

/**
 * Keeps the layer's clusters true to the beacons: recomputed at once on a whole-zoom change or a
 * selection change (`recluster`), and at most once a second for reports (`schedule`). Off (every
 * beacon drawn) when `enabled` is false: the bench's "map-no-clusters" debug flag.
 */
export class BeaconClusterer {
  #zoom = -1;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #last = -Infinity;

  constructor(
    private readonly map: MapboxMap,
    private readonly layer: BeaconGlLayer,
    private readonly selectedId: () => string | null,
    private readonly enabled: boolean,
  ) {}

  recluster = () => {
    this.#timer = undefined;
    this.#last = performance.now();
    this.#zoom = Math.floor(this.map.getZoom());
    const { layer } = this;
    if (this.#zoom >= CLUSTER_MAX_ZOOM || !this.enabled) {
      if (layer.clusterList.length) layer.setClusters([], new Uint8Array(0));
      return;
    }
    const { slots } = layer;
    const selected = this.selectedId();
    const selectedSlot = selected ? slots.slotOf(selected) : undefined;
    const { clusters, hidden } = clusterBeacons(
      slots.size,
      (i) => slots.toX(i),
      (i) => slots.toY(i),
      this.#zoom,
      CLUSTER_CELL_PX,
      CLUSTER_MIN,
      (i) => i === selectedSlot,
    );
    if (clusters.length || layer.clusterList.length) layer.setClusters(clusters, hidden);
  };

  /** After reports: one recluster a second at most, however many arrive. */
  schedule = () => {
    if (this.#timer) return;
    this.#timer = setTimeout(this.recluster, Math.max(0, this.#last + CLUSTER_REFRESH_MS - performance.now()));
  };

  /** After a zoom: clusters use whole zoom levels, so only a new level reclusters. */
  onZoomEnd = () => {
    if (Math.floor(this.map.getZoom()) !== this.#zoom) this.recluster();
  };

  dispose() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
