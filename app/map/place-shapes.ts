import type { Place, PlaceGeometry, Position } from "../../shared/places/places";

const METRES_PER_DEGREE = 111_319.49;

/** A circle as a ring of `steps` points (for drawing; the server tests the exact circle). */
export function circleRing(center: Position, radius: number, steps = 64): Position[] {
  const [lon, lat] = center;
  const kx = METRES_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  const ring: Position[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = (2 * Math.PI * i) / steps;
    ring.push([lon + (radius * Math.cos(a)) / kx, lat + (radius * Math.sin(a)) / METRES_PER_DEGREE]);
  }
  return ring;
}

/** A place's outline as GeoJSON rings, closed. */
export function outline(geometry: PlaceGeometry): Position[][] {
  if (geometry.type === "Circle") return [circleRing(geometry.center, geometry.radius)];
  return geometry.coordinates.map((ring) => [...ring, ring[0]!]);
}

export function placesCollection(places: readonly Place[], selectedId: string | null = null) {
  return {
    type: "FeatureCollection" as const,
    features: places.map((p) => ({
      type: "Feature" as const,
      properties: { id: p.id, name: p.name, selected: p.id === selectedId },
      geometry: { type: "Polygon" as const, coordinates: outline(p.geometry) },
    })),
  };
}

/** Metres between two positions (equirectangular; for a radius being dragged). */
export function metresBetween(a: Position, b: Position): number {
  const kx = METRES_PER_DEGREE * Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180);
  return Math.hypot((b[0] - a[0]) * kx, (b[1] - a[1]) * METRES_PER_DEGREE);
}

/**
 * Coordinates typed by a person, one "lat, lon" per line: one line and a radius make a circle,
 * three or more a polygon. Returns the geometry or a message saying what is wrong.
 */
export function parseTypedGeometry(text: string, radius: number | null): PlaceGeometry | string {
  const points: Position[] = [];
  for (const line of text
    .split(/\n|;/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    const parts = line.split(/[\s,]+/).map(Number);
    if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n)))
      return `Cannot read “${line}”: write latitude, longitude`;
    points.push([parts[1]!, parts[0]!]);
  }
  if (points.length === 1)
    return radius && radius > 0 ? { type: "Circle", center: points[0]!, radius } : "A circle needs a radius in metres";
  if (points.length < 3) return "Enter one point and a radius, or at least 3 points";
  return { type: "Polygon", coordinates: [points] };
}
