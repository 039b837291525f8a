import { describe, expect, it } from "vitest";
import { buildSketchLand } from "../../scripts/offline-geography.mjs";

const rings = JSON.parse(buildSketchLand()) as number[][];

/** Even-odd point in polygon over every ring, as the sketch fills them. */
function onLand(lng: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!];
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

describe("the sketch's coarse land", () => {
  it("is rings of longitude and latitude pairs, small enough to load beside the vehicles", () => {
    expect(rings.length).toBeGreaterThan(50);
    for (const ring of rings) {
      expect(ring.length % 2).toBe(0);
      expect(ring.length).toBeGreaterThanOrEqual(6);
      for (let i = 0; i < ring.length; i += 2) {
        expect(Math.abs(ring[i]!)).toBeLessThanOrEqual(180);
        expect(Math.abs(ring[i + 1]!)).toBeLessThanOrEqual(90);
      }
    }
    expect(JSON.stringify(rings).length).toBeLessThan(80_000);
  });

  it("puts the continents' interiors on land and the oceans and inland seas in water", () => {
    for (const [lng, lat] of [
      [-98.5, 39.5], // Kansas
      [-102, 57], // Canada
      [10, 50], // Germany
      [134, -25], // Australia
    ])
      expect(onLand(lng!, lat!)).toBe(true);
    for (const [lng, lat] of [
      [-40, 35], // the Atlantic
      [-140, 30], // the Pacific
      [-90, 25], // the Gulf of Mexico
      [51, 42], // the Caspian, a hole in Eurasia
    ])
      expect(onLand(lng!, lat!)).toBe(false);
  });
});
