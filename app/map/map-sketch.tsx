import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Telemetry } from "../../shared/fleet/telemetry";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { VEHICLE_STATE_COLOURS, vehicleState } from "../../shared/fleet/vehicle-state";
import { useClientStore, type ClientStore } from "../store";
import { countedPositions, openingCamera, projectWith, type Camera } from "./camera";
import { beaconSize } from "./geometry";
import { mapDebugEnabled } from "./map-debug";
import { loadSketchLand, SKETCH_LAND_MAX_ZOOM, type SketchLand } from "./sketch-land";
import { useSelectedVehicle } from "./use-selected-vehicle";

/** The street and offline maps' land and water colours (offline-geography.ts), so the map takes over without a flash. */
const LAND = "#f2efe9";
const WATER = "#aad3df";
const RING = "#111827";

/**
 * Whether the store can say where the vehicles are: its first sync has ended (or failed, offline),
 * or it opened from the device with positions in it. Until then an empty sketch would only mean
 * "not heard yet".
 */
export function useSketchReady(): boolean {
  const store = useClientStore();
  const subscribe = useCallback(
    (changed: () => void) => {
      const unsubscribe = [store.subscribeStatus(changed), store.subscribeType("telemetry", changed)];
      return () => unsubscribe.forEach((stop) => stop());
    },
    [store],
  );
  const ready = useCallback(() => store.pulled || (store.hydrated && store.ids("telemetry").length > 0), [store]);
  return useSyncExternalStore(subscribe, ready, ready);
}

/**
 * The fleet drawn before the map (docs/decisions/0068): every vehicle at its last position, in its
 * state's colour, on a plain land-coloured background, with the camera the map will open with
 * (camera.ts). On a phone's link mapbox-gl and its first style take seconds after the store knows
 * where the vehicles are; this is a 2D canvas and a few lines of maths, in the app's own code.
 * It follows the store, above the map's element, until the map has drawn; `ready` is useSketchReady's.
 */
export function MapSketch({ ready }: { ready: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const store = useClientStore();
  const [selected] = useSelectedVehicle();
  const [shown, setShown] = useState<{ count: number; camera: Camera } | null>(null);
  const [debug] = useState(mapDebugEnabled);
  const land = useSketchLand(ready);

  useEffect(() => {
    const element = canvas.current;
    if (!element || !ready) return;
    let frame = 0;
    const draw = () => {
      frame = 0;
      // Hidden (another page was opened before the map was ready): nothing to draw until shown again.
      if (element.clientWidth && element.clientHeight) setShown(drawSketch(element, store, selected, land));
    };
    const redraw = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    draw();
    const resizes = new ResizeObserver(redraw);
    resizes.observe(element);
    const unsubscribe = [store.subscribeType("telemetry", redraw), store.subscribeType("vehicle", redraw)];
    return () => {
      if (frame) cancelAnimationFrame(frame);
      resizes.disconnect();
      for (const stop of unsubscribe) stop();
    };
  }, [store, selected, ready, land]);

  return (
    <div
      className="map-sketch"
      data-testid="map-sketch"
      data-vehicles-shown={shown ? true : undefined}
      data-vehicle-count={debug ? shown?.count : undefined}
      data-zoom={debug ? shown?.camera.zoom.toFixed(2) : undefined}
      data-center={debug && shown ? shown.camera.center.map((c) => c.toFixed(5)).join(",") : undefined}
    >
      <canvas ref={canvas} aria-hidden />
      <p className="map-sketch-note" role="status">
        Loading the map…
      </p>
    </div>
  );
}

/** The coarse land, asked for once the sketch can draw (so it never delays the vehicles), then kept. */
function useSketchLand(ready: boolean): SketchLand | null {
  const [land, setLand] = useState<SketchLand | null>(null);
  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    void loadSketchLand().then((loaded) => {
      if (!cancelled) setLand(loaded);
    });
    return () => {
      cancelled = true;
    };
  }, [ready]);
  return land;
}

/** Draws the store's vehicles on `element` at its size; answers how many it drew and the camera. */
function drawSketch(element: HTMLCanvasElement, store: ClientStore, selected: string | null, land: SketchLand | null) {
  const { clientWidth: width, clientHeight: height } = element;
  const ratio = window.devicePixelRatio || 1;
  element.width = Math.round(width * ratio);
  element.height = Math.round(height * ratio);
  const ctx = element.getContext("2d")!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const camera = openingCamera(countedPositions(store, selected), width, height);
  drawBackground(ctx, camera, width, height, land);
  const radius = beaconSize(camera.zoom) / 2;
  let count = 0;
  for (const id of store.ids("telemetry")) {
    const t = store.get<Telemetry>("telemetry", id)!;
    const { x, y } = projectWith(camera, width, height, { lng: t.longitude, lat: t.latitude });
    if (x < -radius || y < -radius || x > width + radius || y > height + radius) continue;
    const state = vehicleState(store.get<Vehicle>("vehicle", id)?.beaconStatus, t.status);
    ctx.beginPath();
    ctx.arc(x, y, radius - 1, 0, 2 * Math.PI);
    ctx.fillStyle = VEHICLE_STATE_COLOURS[state];
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = id === selected ? RING : "#ffffff";
    ctx.stroke();
    count++;
  }
  return { count, camera };
}

/**
 * Water with the coarse land over it at a country's or a region's scale; closer in, a plain land
 * colour, since an 11 km coastline would put vehicles near a coast in the sea.
 */
function drawBackground(
  ctx: CanvasRenderingContext2D,
  camera: Camera,
  width: number,
  height: number,
  land: SketchLand | null,
) {
  const outlined = land && camera.zoom <= SKETCH_LAND_MAX_ZOOM;
  ctx.fillStyle = outlined ? WATER : LAND;
  ctx.fillRect(0, 0, width, height);
  if (!outlined) return;
  ctx.beginPath();
  for (const ring of land) {
    for (let i = 0; i < ring.length; i += 2) {
      const { x, y } = projectWith(camera, width, height, { lng: ring[i]!, lat: ring[i + 1]! });
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }
  ctx.fillStyle = LAND;
  // Lakes are rings inside the land: even-odd leaves them water.
  ctx.fill("evenodd");
}
