import { z } from "zod";
import { type PlaceTableWire, placeTable } from "./place-fields";

/**
 * A place (geofence): a circle or a polygon with a name. The same schema checks the /locations
 * form, the REST API (DESIGN.md "Places and alerts") and the Replicache mutators. Coordinates are
 * GeoJSON's `[longitude, latitude]`. The plain fields (the name) are a table of their own
 * (place-fields.ts, docs/decisions/0105); the geometry, which has rules, is written out here.
 */
export const PLACE_PREFIX = "place/";
export const placeKey = (id: string) => `${PLACE_PREFIX}${id}`;

export const MAX_RADIUS_M = 100_000;
export const MAX_POLYGON_POINTS = 500;

const longitude = z
  .number({ invalid_type_error: "Longitude must be a number" })
  .min(-180, "Longitude must be between -180 and 180")
  .max(180, "Longitude must be between -180 and 180");
const latitude = z
  .number({ invalid_type_error: "Latitude must be a number" })
  .min(-90, "Latitude must be between -90 and 90")
  .max(90, "Latitude must be between -90 and 90");
const position = z.tuple([longitude, latitude]);
export type Position = z.infer<typeof position>;

const circleSchema = z.object({
  type: z.literal("Circle"),
  center: position,
  radius: z
    .number({ invalid_type_error: "Radius must be a number" })
    .positive("Radius must be more than 0 metres")
    .max(MAX_RADIUS_M, "Radius must be at most 100 km"),
});

/** A ring as typed or drawn: the closing point may be repeated or not; it is stored open. */
const ringSchema = z
  .array(position)
  .transform(openRing)
  .refine((ring) => ring.length >= 3, "A polygon needs at least 3 points")
  .refine((ring) => ring.length <= MAX_POLYGON_POINTS, `A polygon has at most ${MAX_POLYGON_POINTS} points`)
  .refine((ring) => !selfIntersects(unwrapRing(ring)), "The polygon's edges cross each other");

/** Per workspace and per place (issue 34): every report is tested against every place's vertices. */
export const MAX_PLACES = 1_000;
export const MAX_RINGS = 10;
export const MAX_PLACE_VERTICES = 2_000;

const polygonSchema = z.object({
  type: z.literal("Polygon"),
  coordinates: z
    .array(ringSchema)
    .min(1, "A polygon needs an outer ring")
    .max(MAX_RINGS, `At most ${MAX_RINGS - 1} holes`)
    .refine(
      (rings) => rings.reduce((n, r) => n + r.length, 0) <= MAX_PLACE_VERTICES,
      `A place has at most ${MAX_PLACE_VERTICES} points in all`,
    ),
});

export const placeGeometrySchema = z.discriminatedUnion("type", [circleSchema, polygonSchema], {
  errorMap: () => ({ message: "Geometry must be a Polygon or a Circle" }),
});
export type PlaceGeometry = z.infer<typeof placeGeometrySchema>;
export type CircleGeometry = z.infer<typeof circleSchema>;
export type PolygonGeometry = z.infer<typeof polygonSchema>;

const placeId = z.string().min(1).max(100);

/** The REST body: the table's fields (shared/places/place-fields.ts), then the geometry. The id is the server's. */
export const placeBodySchema = z.object({ ...placeTable.inputs, geometry: placeGeometrySchema });
export const placePatchSchema = placeBodySchema.partial();

/** The sync mutators' arguments: the REST body and patch with the id the browser chose. */
export const createPlaceArgs = z.object({ id: placeId }).merge(placeBodySchema);
export const updatePlaceArgs = z.object({ id: placeId }).merge(placePatchSchema);
export const deletePlaceArgs = z.object({ id: placeId });
export type CreatePlaceArgs = z.input<typeof createPlaceArgs>;
export type UpdatePlaceArgs = z.input<typeof updatePlaceArgs>;

export const placeSchema = z.object({ id: z.string(), ...placeTable.answers, geometry: placeGeometrySchema });
export type Place = z.infer<typeof placeSchema>;

/** What `place/{id}` holds in the client store: the id is the key's, the table's fields under their short keys. */
export type PlaceWire = PlaceTableWire & { g: PlaceGeometry };
export function encodePlace(p: Omit<Place, "id">): PlaceWire {
  const w = {} as PlaceWire;
  placeTable.encode(p, w);
  w.g = p.geometry;
  return w;
}
export const decodePlace = (id: string, w: PlaceWire): Place => ({ id, ...placeTable.decode(w), geometry: w.g });

function openRing(ring: Position[]): Position[] {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (ring.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) return ring.slice(0, -1);
  return ring;
}

/**
 * The ring with each longitude moved by ±360° to lie within 180° of the previous one, so a place
 * drawn across the antimeridian (179.9 → -179.9) is one small shape, not one around the world.
 */
export function unwrapRing(ring: Position[]): Position[] {
  const out: Position[] = [];
  let previous: number | null = null;
  for (const [lon, lat] of ring) {
    const unwrapped: number = previous === null ? lon : previous + wrapDelta(lon - previous);
    out.push([unwrapped, lat]);
    previous = unwrapped;
  }
  return out;
}

/** A longitude difference brought into [-180, 180). */
export const wrapDelta = (delta: number) => ((((delta + 180) % 360) + 360) % 360) - 180;

/** Do two edges of the (open) ring cross? O(n²), fine at 500 points and only on writes. */
export function selfIntersects(ring: Position[]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      // neighbouring edges share a vertex; that is not a crossing
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsCross(a, b, ring[j]!, ring[(j + 1) % n]!)) return true;
    }
  }
  return false;
}

const orientation = (p: Position, q: Position, r: Position) =>
  Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));

function segmentsCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  // collinear overlap counts as crossing (a degenerate ring)
  return (
    (o1 === 0 && onSegment(a, c, b)) ||
    (o2 === 0 && onSegment(a, d, b)) ||
    (o3 === 0 && onSegment(c, a, d)) ||
    (o4 === 0 && onSegment(c, b, d))
  );
}

const onSegment = (p: Position, q: Position, r: Position) =>
  Math.min(p[0], r[0]) <= q[0] &&
  q[0] <= Math.max(p[0], r[0]) &&
  Math.min(p[1], r[1]) <= q[1] &&
  q[1] <= Math.max(p[1], r[1]);
