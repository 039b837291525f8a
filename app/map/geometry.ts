/** Map rules of docs/product.md section 9, pure so they are unit-tested. */
import { ease } from "./easing";

export const INITIAL_VIEW = { center: [-100, 40] as [number, number], zoom: 5 };
export const GLIDE_MS = 8000;
export const PANEL_WIDTH = 350;

/** Beacon diameter in pixels: max(35, 50 - 5 × zoom). */
export function beaconSize(zoom: number): number {
  return Math.max(35, 50 - 5 * zoom);
}

export interface LngLat {
  lng: number;
  lat: number;
}

/** Where a gliding beacon is `elapsed` ms after it started towards `to` (ease-in-out). */
export function glide(from: LngLat, to: LngLat, elapsed: number, total = GLIDE_MS): LngLat {
  const eased = ease(elapsed / total);
  return { lng: from.lng + (to.lng - from.lng) * eased, lat: from.lat + (to.lat - from.lat) * eased };
}

/** A point projected on screen is out of view when outside, or within 5% of, the map's edges. */
export function outOfView(points: { x: number; y: number }[], width: number, height: number, leftInset = 0): boolean {
  const mx = width * 0.05;
  const my = height * 0.05;
  return points.some((p) => p.x < leftInset + mx || p.x > width - mx || p.y < my || p.y > height - my);
}

/** Padding of 10% of the map on each side, plus the floating panel on the left. */
export function fitPadding(width: number, height: number) {
  const x = Math.round(width * 0.1);
  const y = Math.round(height * 0.1);
  return { top: y, bottom: y, left: x + PANEL_WIDTH, right: x };
}

/** Zoom cap when fitting: 14 for one vehicle, 13 for up to three, none beyond. */
export function fitMaxZoom(count: number): number | undefined {
  if (count <= 1) return 14;
  if (count <= 3) return 13;
  return undefined;
}

export function boundsOf(points: LngLat[]): [[number, number], [number, number]] | null {
  if (!points.length) return null;
  let minLng = Infinity,
    minLat = Infinity,
    maxLng = -Infinity,
    maxLat = -Infinity;
  for (const p of points) {
    minLng = Math.min(minLng, p.lng);
    maxLng = Math.max(maxLng, p.lng);
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
  }
  return [
    [minLng, minLat],
    [maxLng, maxLat],
  ];
}

/** Below this map width the map's panel is a sheet over the bottom of the map (styles.css, phone layout). */
export const PHONE_MAP_WIDTH = 640;
/** The share of the map's height the sheet covers when down. */
export const SHEET_DOWN_SHARE = 0.4;

/** fitPadding on a phone: the sheet covers the bottom of the map, not its left. */
export function phoneFitPadding(width: number, height: number) {
  const x = Math.round(width * 0.1);
  const y = Math.round(height * 0.1);
  return { top: y, bottom: y + Math.round(height * SHEET_DOWN_SHARE), left: x, right: x };
}

/** Every corner a place's shape reaches (a circle's bounding box), to fit the map to the places. */
export function placeExtent(
  geometry:
    | { type: "Circle"; center: [number, number]; radius: number }
    | { type: "Polygon"; coordinates: [number, number][][] },
): LngLat[] {
  if (geometry.type === "Polygon") return (geometry.coordinates[0] ?? []).map(([lng, lat]) => ({ lng, lat }));
  const [lng, lat] = geometry.center;
  const dLat = geometry.radius / 111_320;
  const dLng = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  return [
    { lng: lng - dLng, lat: lat - dLat },
    { lng: lng + dLng, lat: lat + dLat },
  ];
}
