import { describe, expect, it } from "vitest";
import {
  beaconSize,
  boundsOf,
  fitMaxZoom,
  fitPadding,
  glide,
  outOfView,
  phoneFitPadding,
  placeExtent,
} from "./geometry";

describe("map rules", () => {
  it("sizes beacons max(35, 50 - 5 × zoom)", () => {
    expect(beaconSize(0)).toBe(50);
    expect(beaconSize(2)).toBe(40);
    expect(beaconSize(5)).toBe(35);
    expect(beaconSize(14)).toBe(35);
  });

  it("glides from the old to the new position over 8 s", () => {
    const from = { lng: 0, lat: 0 };
    const to = { lng: 10, lat: 20 };
    expect(glide(from, to, 0)).toEqual(from);
    expect(glide(from, to, 4000)).toEqual({ lng: 5, lat: 10 });
    expect(glide(from, to, 8000)).toEqual(to);
    expect(glide(from, to, 20_000)).toEqual(to);
  });

  it("calls a vehicle out of view within 5% of an edge", () => {
    expect(outOfView([{ x: 500, y: 300 }], 1000, 600)).toBe(false);
    expect(outOfView([{ x: 960, y: 300 }], 1000, 600)).toBe(true);
    expect(outOfView([{ x: 500, y: 20 }], 1000, 600)).toBe(true);
    expect(outOfView([{ x: -10, y: 300 }], 1000, 600)).toBe(true);
  });

  it("pads fits by 10% plus the panel on the left and caps the zoom for few vehicles", () => {
    expect(fitPadding(1000, 600)).toEqual({ top: 60, bottom: 60, left: 450, right: 100 });
    expect([fitMaxZoom(1), fitMaxZoom(3), fitMaxZoom(4)]).toEqual([14, 13, undefined]);
    expect(
      boundsOf([
        { lng: -74, lat: 40 },
        { lng: -87, lat: 41 },
      ]),
    ).toEqual([
      [-87, 40],
      [-74, 41],
    ]);
  });
});

describe("on a phone", () => {
  it("fits above the sheet: the bottom padding adds the 40% the sheet covers when down", () => {
    expect(phoneFitPadding(390, 792)).toEqual({ top: 79, bottom: 79 + 317, left: 39, right: 39 });
  });

  it("a place's extent: a polygon's corners, a circle's bounding box", () => {
    expect(
      placeExtent({
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
          ],
        ],
      }),
    ).toEqual([
      { lng: 0, lat: 0 },
      { lng: 1, lat: 0 },
      { lng: 1, lat: 1 },
    ]);
    const [sw, ne] = placeExtent({ type: "Circle", center: [-87.63, 41.88], radius: 1113.2 });
    expect(ne!.lat - 41.88).toBeCloseTo(0.01, 4);
    expect(41.88 - sw!.lat).toBeCloseTo(0.01, 4);
    // A degree of longitude is shorter at 41.88°N: the box is wider in degrees than it is tall.
    expect(ne!.lng - -87.63).toBeCloseTo(0.01 / Math.cos((41.88 * Math.PI) / 180), 4);
  });
});
