/**
 * Where the fleet map looks when it opens: the vehicles that count (the selected one, or all of
 * them) fitted with FitBounds's padding and zoom cap, computed without mapbox-gl. The sketch drawn
 * before mapbox-gl has arrived (map-sketch.tsx) and the map created afterwards (map-host.tsx) use
 * the same camera, so the map opens with every vehicle where the sketch drew it and FitBounds
 * finds nothing out of view to refit (docs/decisions/0068).
 */
import type { Telemetry } from "../../shared/fleet/telemetry";
import type { ClientStore } from "../store";
import { latOf, lngOf, mercatorX, mercatorY, worldSize } from "./beacon-math";
import {
  fitMaxZoom,
  fitPadding,
  INITIAL_VIEW,
  outOfView,
  phoneFitPadding,
  PHONE_MAP_WIDTH,
  SHEET_DOWN_SHARE,
  type LngLat,
} from "./geometry";

export interface Camera {
  center: [number, number];
  zoom: number;
}

/** mapbox-gl's own zoom range: a fit of vehicles all at one spot stops at its maximum. */
const MIN_ZOOM = 0;
const MAX_ZOOM = 22;

/** The positions the camera rules count: the selected vehicle's, or every vehicle's. */
export function countedPositions(store: ClientStore, selected: string | null): LngLat[] {
  const ids = selected ? [selected] : store.ids("telemetry");
  const out: LngLat[] = [];
  for (const id of ids) {
    const t = store.get<Telemetry>("telemetry", id);
    if (t) out.push({ lng: t.longitude, lat: t.latitude });
  }
  return out;
}

/** The floating panel: 325 px wide, 12 px from the map's left edge. */
const PANEL_INSET = 12 + 325;

/**
 * The part of a `width` × `height` map in which a vehicle counts as in view: the floating panel
 * (list or selected vehicle) covers its left; on a phone, the sheet covers its bottom instead.
 */
export function viewArea(width: number, height: number): { width: number; height: number; leftInset: number } {
  if (width < PHONE_MAP_WIDTH) return { width, height: height * (1 - SHEET_DOWN_SHARE), leftInset: 0 };
  return { width, height, leftInset: PANEL_INSET };
}

/** Whether any of `points` is out of view (geometry.ts's rule) on a `width` × `height` map looking through `camera`. */
export function anyOutOfViewUnder(camera: Camera, width: number, height: number, points: readonly LngLat[]) {
  const area = viewArea(width, height);
  const projected = points.map((p) => projectWith(camera, width, height, p));
  return outOfView(projected, area.width, area.height, area.leftInset);
}

/**
 * Where the map settles when it opens: the initial view (SPEC: centre -100, 40, zoom 5) while
 * every vehicle that counts is in it, else the fit FitBounds would make at once.
 */
export function openingCamera(points: readonly LngLat[], width: number, height: number): Camera {
  if (!points.length || !anyOutOfViewUnder(INITIAL_VIEW, width, height, points)) return INITIAL_VIEW;
  return fitCamera(points, width, height) ?? INITIAL_VIEW;
}

/** The padding FitBounds fits with on a map of this size: the panel on the left, or the phone's sheet below. */
export function paddingFor(width: number, height: number) {
  return width < PHONE_MAP_WIDTH ? phoneFitPadding(width, height) : fitPadding(width, height);
}

/**
 * The camera mapbox-gl's fitBounds settles on for `points` on a `width` × `height` map (Web
 * Mercator, 512 px tiles): the largest zoom at which their bounds fit inside the padding, capped
 * as FitBounds caps it, centred so the bounds sit in the middle of the padded area. Null when
 * there is nothing to fit or no room to fit it in.
 */
export function fitCamera(points: readonly LngLat[], width: number, height: number): Camera | null {
  if (!points.length) return null;
  const padding = paddingFor(width, height);
  const roomX = width - padding.left - padding.right;
  const roomY = height - padding.top - padding.bottom;
  if (roomX <= 0 || roomY <= 0) return null;
  const xs = points.map((p) => mercatorX(p.lng));
  const ys = points.map((p) => mercatorY(p.lat));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // World units to pixels at zoom 0 is 512: the zoom at which the bounds just fill the room.
  const fill = Math.min(roomX / ((x1 - x0) * worldSize(0)), roomY / ((y1 - y0) * worldSize(0)));
  const cap = fitMaxZoom(points.length) ?? MAX_ZOOM;
  const zoom = Math.max(MIN_ZOOM, Math.min(cap, MAX_ZOOM, Math.log2(fill)));
  const scale = worldSize(zoom);
  // The bounds' centre sits at the padded area's centre: the camera is offset by half the difference.
  const cx = (x0 + x1) / 2 - (padding.left - padding.right) / 2 / scale;
  const cy = (y0 + y1) / 2 - (padding.top - padding.bottom) / 2 / scale;
  return { center: [lngOf(cx), latOf(cy)], zoom };
}

/** Where a point is drawn, in CSS pixels from the map's top left corner, under `camera`. */
export function projectWith(camera: Camera, width: number, height: number, point: LngLat): { x: number; y: number } {
  const scale = worldSize(camera.zoom);
  return {
    x: width / 2 + (mercatorX(point.lng) - mercatorX(camera.center[0])) * scale,
    y: height / 2 + (mercatorY(point.lat) - mercatorY(camera.center[1])) * scale,
  };
}
