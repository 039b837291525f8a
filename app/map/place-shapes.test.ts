import { describe, expect, it } from "vitest";
import { placeTable } from "../../shared/places/place-fields";
import { circleRing, metresBetween, parseTypedGeometry, placesCollection } from "./place-shapes";

describe("place shapes on the map", () => {
  it("draws a circle as a closed ring at its radius", () => {
    const ring = circleRing([-87.63, 41.88], 500);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    for (const p of ring) expect(metresBetween([-87.63, 41.88], p)).toBeCloseTo(500, 0);
  });

  it("closes polygon rings for GeoJSON", () => {
    const fc = placesCollection(
      [
        {
          id: "a",
          // the place table's other fields empty (shared/places/place-fields.ts)
          ...placeTable.given({ name: "A" }),
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
              ],
            ],
          },
        },
      ],
      "a",
    );
    expect(fc.features[0]!.geometry.coordinates[0]).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    expect(fc.features[0]!.properties).toMatchObject({ selected: true });
  });

  it("reads typed coordinates as latitude, longitude", () => {
    expect(parseTypedGeometry("41.88, -87.63", 200)).toEqual({ type: "Circle", center: [-87.63, 41.88], radius: 200 });
    expect(parseTypedGeometry("1 2\n3 4\n5 6", null)).toEqual({
      type: "Polygon",
      coordinates: [
        [
          [2, 1],
          [4, 3],
          [6, 5],
        ],
      ],
    });
    expect(parseTypedGeometry("41.88", null)).toMatch(/Cannot read/);
    expect(parseTypedGeometry("1 2\n3 4", null)).toMatch(/at least 3/);
  });
});
