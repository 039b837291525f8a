import { unwrapRing, wrapDelta, type PlaceGeometry, type Position } from "../../shared/places/places";

/**
 * A place compiled for evaluation: its outline in metres on a local flat projection around its
 * own reference point (equirectangular; exact enough for places up to 100 km across), so every
 * test is plain arithmetic. Longitudes are taken relative to the reference with `wrapDelta`, which
 * makes a place across the antimeridian as ordinary as any other.
 */
export interface CompiledPlace {
  id: string;
  lon0: number;
  lat0: number;
  /** metres per degree of longitude and of latitude at the reference */
  kx: number;
  ky: number;
  /** circle: its radius; polygon: null */
  radius: number | null;
  /** polygon: outer ring then holes, each as [x0, y0, x1, y1, ...] in local metres */
  rings: Float64Array[];
  /** bounding box in degrees; longitudes unwrapped, so minLon may be < -180 or maxLon > 180 */
  box: [minLon: number, minLat: number, maxLon: number, maxLat: number];
}

const METRES_PER_DEGREE = 111_319.49;

export function compilePlace(id: string, geometry: PlaceGeometry): CompiledPlace {
  if (geometry.type === "Circle") {
    const [lon0, lat0] = geometry.center;
    const { kx, ky } = scales(lat0);
    const dLat = geometry.radius / ky;
    const dLon = Math.min(180, geometry.radius / kx);
    return {
      id,
      lon0,
      lat0,
      kx,
      ky,
      radius: geometry.radius,
      rings: [],
      box: [lon0 - dLon, lat0 - dLat, lon0 + dLon, lat0 + dLat],
    };
  }
  const outer = unwrapRing(geometry.coordinates[0]!);
  const [lon0, lat0] = outer[0]!;
  const { kx, ky } = scales(lat0);
  const toLocal = (ring: Position[]) => {
    const flat = new Float64Array(ring.length * 2);
    ring.forEach(([lon, lat], i) => {
      flat[2 * i] = wrapDelta(lon - lon0) * kx;
      flat[2 * i + 1] = (lat - lat0) * ky;
    });
    return flat;
  };
  const rings = [outer, ...geometry.coordinates.slice(1)].map(toLocal);
  const lons = outer.map((p) => lon0 + wrapDelta(p[0] - lon0));
  const lats = outer.map((p) => p[1]);
  return {
    id,
    lon0,
    lat0,
    kx,
    ky,
    radius: null,
    rings,
    box: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
  };
}

function scales(lat: number) {
  // near the poles a degree of longitude shrinks to nothing; keep it finite
  return { kx: METRES_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180)), ky: METRES_PER_DEGREE };
}

/** A position in the place's local metres. */
export function toLocal(place: CompiledPlace, longitude: number, latitude: number): [number, number] {
  return [wrapDelta(longitude - place.lon0) * place.kx, (latitude - place.lat0) * place.ky];
}

/** Metres from the boundary: negative inside, positive outside. Holes are outside. */
export function signedDistance(place: CompiledPlace, x: number, y: number): number {
  if (place.radius !== null) return Math.hypot(x, y) - place.radius;
  let inside = false;
  let nearest = Infinity;
  for (const ring of place.rings) {
    const n = ring.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = ring[2 * i]!,
        yi = ring[2 * i + 1]!,
        xj = ring[2 * j]!,
        yj = ring[2 * j + 1]!;
      // even-odd rule over every ring: a hole flips the answer back to outside
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      nearest = Math.min(nearest, distanceToSegment(x, y, xi, yi, xj, yj));
    }
  }
  return inside ? -nearest : nearest;
}

function distanceToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/**
 * Where the segment a→b (local metres) crosses the boundary, as sorted fractions of its length
 * (empty when it never does). Between the 1st and 2nd, 3rd and 4th, ... the segment is inside.
 */
export function boundaryCrossings(place: CompiledPlace, ax: number, ay: number, bx: number, by: number): number[] {
  const dx = bx - ax,
    dy = by - ay;
  if (place.radius !== null) return circleCrossings(place.radius, ax, ay, dx, dy);
  const crossings: number[] = [];
  for (const ring of place.rings) {
    const n = ring.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const t = segmentIntersection(ax, ay, dx, dy, ring[2 * j]!, ring[2 * j + 1]!, ring[2 * i]!, ring[2 * i + 1]!);
      if (t !== null) crossings.push(t);
    }
  }
  return crossings.sort((a, b) => a - b);
}

function circleCrossings(r: number, ax: number, ay: number, dx: number, dy: number): number[] {
  const a = dx * dx + dy * dy;
  if (a === 0) return [];
  const b = 2 * (ax * dx + ay * dy);
  const c = ax * ax + ay * ay - r * r;
  const discriminant = b * b - 4 * a * c;
  if (discriminant < 0) return [];
  const root = Math.sqrt(discriminant);
  const t1 = (-b - root) / (2 * a);
  const t2 = (-b + root) / (2 * a);
  return [t1, t2].filter((t) => t >= 0 && t <= 1);
}

/** The fraction along a + t·d at which it meets the edge p→q, or null. */
function segmentIntersection(
  ax: number,
  ay: number,
  dx: number,
  dy: number,
  px: number,
  py: number,
  qx: number,
  qy: number,
): number | null {
  const ex = qx - px,
    ey = qy - py;
  const denominator = dx * ey - dy * ex;
  if (denominator === 0) return null;
  const t = ((px - ax) * ey - (py - ay) * ex) / denominator;
  const u = ((px - ax) * dy - (py - ay) * dx) / denominator;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : null;
}
