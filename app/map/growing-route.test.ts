import { describe, expect, it } from "vitest";
import { GLIDE_MS } from "./geometry";
import { GrowingRoute } from "./growing-route";

const a = { lng: -79, lat: 43 };
const b = { lng: -78.99, lat: 43.01 };

describe("the selected vehicle's route", () => {
  it("draws a lone point as a line of two, so mapbox-gl shows it", () => {
    const route = new GrowingRoute();
    route.append(a, 1000, false, 0);
    expect(route.lineAt(0)).toEqual([
      [a.lng, a.lat],
      [a.lng, a.lat],
    ]);
  });

  it("glides its last stretch with the beacon's curve, then holds at the report", () => {
    const route = new GrowingRoute();
    route.append(a, 1000, false, 0);
    route.append(b, 2000, true, 10_000);
    expect(route.lineAt(10_000)).toEqual([
      [a.lng, a.lat],
      [a.lng, a.lat],
    ]);
    const [, middle] = route.lineAt(10_000 + GLIDE_MS / 2);
    expect(middle![0]).toBeCloseTo((a.lng + b.lng) / 2, 9);
    expect(middle![1]).toBeCloseTo((a.lat + b.lat) / 2, 9);
    expect(route.gliding).toBe(true);
    expect(route.lineAt(10_000 + GLIDE_MS)).toEqual([
      [a.lng, a.lat],
      [b.lng, b.lat],
    ]);
    expect(route.gliding).toBe(false);
  });

  it("ignores a report no newer than its last point", () => {
    const route = new GrowingRoute();
    expect(route.append(a, 1000, false, 0)).toBe(true);
    expect(route.append(b, 1000, true, 0)).toBe(false);
    expect(route.points).toEqual([a]);
  });

  it("puts the history before reports that arrived while it was read, and takes its time as the newest", () => {
    const route = new GrowingRoute();
    route.append(b, 5000, true, 0);
    route.prependHistory([
      { t: 1000, ...a },
      { t: 3000, lng: -78.995, lat: 43.005 },
    ]);
    expect(route.points).toEqual([a, { lng: -78.995, lat: 43.005 }, b]);
    expect(route.lastTime).toBe(5000);
    const late = new GrowingRoute();
    late.prependHistory([{ t: 9000, ...a }]);
    expect(late.append(b, 8000, false, 0)).toBe(false);
  });
});
