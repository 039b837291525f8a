/** Plane geometry on the scale of a city: enough to move a simulated vehicle along a street. */
import { distanceMetres, type LatLon } from "../../shared/units/geo";

export { distanceMetres, type LatLon };

export type Polyline = readonly (readonly [lat: number, lon: number])[];

const rad = Math.PI / 180;

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDegrees(a: LatLon, b: LatLon) {
  const y = Math.sin((b.longitude - a.longitude) * rad) * Math.cos(b.latitude * rad);
  const x =
    Math.cos(a.latitude * rad) * Math.sin(b.latitude * rad) -
    Math.sin(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.cos((b.longitude - a.longitude) * rad);
  return (Math.atan2(y, x) / rad + 360) % 360;
}

const point = ([latitude, longitude]: readonly [number, number]): LatLon => ({ latitude, longitude });

/** Total length of a polyline in metres. */
export function polylineLength(line: Polyline) {
  let total = 0;
  for (let i = 1; i < line.length; i++) total += distanceMetres(point(line[i - 1]!), point(line[i]!));
  return total;
}

/**
 * The point `metres` along the polyline (clamped to its ends) and the heading of the segment it
 * lies on.
 */
export function pointAlong(line: Polyline, metres: number): LatLon & { heading: number } {
  if (line.length === 0) throw new Error("empty polyline");
  let left = Math.max(0, metres);
  for (let i = 1; i < line.length; i++) {
    const a = point(line[i - 1]!);
    const b = point(line[i]!);
    const d = distanceMetres(a, b);
    if (left <= d || i === line.length - 1) {
      const f = d === 0 ? 0 : Math.min(1, left / d);
      return {
        latitude: a.latitude + (b.latitude - a.latitude) * f,
        longitude: a.longitude + (b.longitude - a.longitude) * f,
        heading: bearingDegrees(a, b),
      };
    }
    left -= d;
  }
  return { ...point(line[0]!), heading: 0 };
}

/** The polyline driven the other way. */
export const reversed = (line: Polyline): Polyline => [...line].reverse();
