import { describe, expect, it } from "vitest";
import {
  clusterBeacons,
  clusterDiameter,
  latOf,
  lngOf,
  mercatorX,
  mercatorY,
  originTooFar,
  pickNearest,
  worldSize,
} from "./beacon-math";

describe("beacon maths", () => {
  it("projects to Web Mercator and back", () => {
    expect(mercatorX(-180)).toBe(0);
    expect(mercatorX(0)).toBe(0.5);
    expect(mercatorY(0)).toBeCloseTo(0.5, 12);
    for (const [lng, lat] of [
      [-100, 40],
      [151.2, -33.9],
      [-74.006, 40.7128],
    ] as const) {
      expect(lngOf(mercatorX(lng))).toBeCloseTo(lng, 9);
      expect(latOf(mercatorY(lat))).toBeCloseTo(lat, 9);
    }
    expect(mercatorY(60)).toBeLessThan(mercatorY(40)); // y grows southwards, as mapbox-gl's
  });

  it("grows clusters with their count", () => {
    expect(clusterDiameter(35, 1)).toBe(35);
    expect(clusterDiameter(35, 10)).toBe(41);
    expect(clusterDiameter(35, 10_000)).toBe(59);
  });

  it("moves the float32 origin only when the error would reach a quarter pixel", () => {
    const origin = [0.2, 0.37] as const;
    expect(originTooFar(origin, [0.25, 0.37], 5)).toBe(false); // a country away, zoomed out
    expect(originTooFar(origin, [0.2001, 0.37], 18)).toBe(false); // 4 km away, street level
    expect(originTooFar(origin, [0.25, 0.37], 18)).toBe(true); // a country away, street level
    expect(0.05 * worldSize(18) * 6e-8).toBeGreaterThan(0.25);
  });
});

describe("clusters", () => {
  // Vehicles as Mercator points; at zoom 5 a 60 px cell is 60 / 16,384 of the world.
  const cell = 60 / worldSize(5);
  const bx = Math.floor(0.3 / cell) * cell; // cell corners
  const by = Math.floor(0.4 / cell) * cell;
  const b2 = Math.floor(0.5 / cell) * cell;
  const points = [
    ...Array.from({ length: 5 }, (_, i) => [bx + (i + 0.5) * cell * 0.1, by + cell * 0.5]), // 5 in one cell
    [bx + cell * 5.5, by + cell * 0.5], // alone, far away
    [b2 + cell * 0.2, b2 + cell * 0.2], // 3 together: fewer than the minimum
    [b2 + cell * 0.3, b2 + cell * 0.3],
    [b2 + cell * 0.4, b2 + cell * 0.4],
  ];
  const run = (skip?: (i: number) => boolean, zoom = 5) =>
    clusterBeacons(
      points.length,
      (i) => points[i]![0]!,
      (i) => points[i]![1]!,
      zoom,
      60,
      5,
      skip,
    );

  it("aggregates a crowded cell into one cluster with its count at the members' mean, and hides its members", () => {
    const { clusters, hidden } = run();
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.count).toBe(5);
    expect(clusters[0]!.x).toBeCloseTo(bx + 2.5 * cell * 0.1, 12);
    expect([...hidden]).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0]);
  });

  it("keeps a skipped vehicle (the selected one) out of clusters, which may then be too small", () => {
    const { clusters, hidden } = run((i) => i === 0);
    expect(clusters).toHaveLength(0);
    expect(hidden.every((h) => h === 0)).toBe(true);
  });

  it("uses whole zoom levels: the same clusters at 5 and 5.9, none once zoomed in far enough", () => {
    expect(run(undefined, 5.9).clusters).toEqual(run(undefined, 5).clusters);
    expect(run(undefined, 9).clusters).toHaveLength(0);
  });
});

describe("picking", () => {
  it("finds the nearest disc containing the pointer; the later-drawn one on a tie; none outside", () => {
    const d = [10, 3, 30, 3];
    expect(
      pickNearest(
        4,
        (i) => d[i]!,
        () => 17.5,
      ),
    ).toBe(3);
    expect(
      pickNearest(
        4,
        (i) => d[i]! + 20,
        () => 17.5,
      ),
    ).toBe(-1);
    expect(
      pickNearest(
        4,
        (i) => (i === 1 || i === 3 ? NaN : d[i]!),
        () => 17.5,
      ),
    ).toBe(0);
    expect(
      pickNearest(
        2,
        (i) => [20, 25][i]!,
        (i) => [17.5, 30][i]!,
      ),
    ).toBe(1);
  });
});
