import { describe, expect, it } from "vitest";
import { beaconSize, boundsOf, fitMaxZoom, fitPadding, glide, outOfView } from "./geometry";

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
    expect(boundsOf([{ lng: -74, lat: 40 }, { lng: -87, lat: 41 }])).toEqual([[-87, 40], [-74, 41]]);
  });
});
