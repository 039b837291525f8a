import { describe, expect, it } from "vitest";
import { bearingDegrees, distanceMetres, pointAlong, polylineLength, reversed, type Polyline } from "./geo";

describe("street geometry", () => {
  it("measures distances on the Earth's surface", () => {
    // One degree of latitude is about 111.2 km anywhere.
    expect(distanceMetres({ latitude: 40, longitude: -74 }, { latitude: 41, longitude: -74 })).toBeCloseTo(111_195, -2);
    // A degree of longitude shrinks with the cosine of the latitude.
    expect(distanceMetres({ latitude: 60, longitude: 0 }, { latitude: 60, longitude: 1 })).toBeCloseTo(55_597, -2);
  });

  it("gives compass headings", () => {
    const o = { latitude: 40, longitude: -74 };
    expect(bearingDegrees(o, { latitude: 40.01, longitude: -74 })).toBeCloseTo(0, 3);
    expect(bearingDegrees(o, { latitude: 40, longitude: -73.99 })).toBeCloseTo(90, 1);
    expect(bearingDegrees(o, { latitude: 39.99, longitude: -74 })).toBeCloseTo(180, 3);
    expect(bearingDegrees(o, { latitude: 40, longitude: -74.01 })).toBeCloseTo(270, 1);
  });

  it("walks along a polyline, clamped to its ends", () => {
    // North 1,112 m, then east.
    const line: Polyline = [
      [40, -74],
      [40.01, -74],
      [40.01, -73.99],
    ];
    const first = distanceMetres({ latitude: 40, longitude: -74 }, { latitude: 40.01, longitude: -74 });
    expect(polylineLength(line)).toBeGreaterThan(first);
    expect(pointAlong(line, -5)).toMatchObject({ latitude: 40, longitude: -74 });
    const half = pointAlong(line, first / 2);
    expect(half.latitude).toBeCloseTo(40.005, 6);
    expect(half.heading).toBeCloseTo(0, 3);
    const onSecond = pointAlong(line, first + 100);
    expect(onSecond.latitude).toBeCloseTo(40.01, 6);
    expect(onSecond.longitude).toBeGreaterThan(-74);
    expect(onSecond.heading).toBeCloseTo(90, 0);
    expect(pointAlong(line, 1e9)).toMatchObject({ latitude: 40.01, longitude: -73.99 });
    expect(pointAlong(reversed(line), 0)).toMatchObject({ latitude: 40.01, longitude: -73.99 });
  });
});
