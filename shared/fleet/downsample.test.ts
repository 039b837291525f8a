import { describe, expect, it } from "vitest";
import { downsampleTrack, stopBoundaries, type TrackPoint } from "./downsample";

const T0 = Date.UTC(2026, 10, 23, 8);
/** `n` reports every 4 s heading east from (lat, lng) at `speed` m/s (0: standing still). */
function drive(n: number, start: { t: number; lat: number; lng: number }, speed: number, wiggle = 0): TrackPoint[] {
  return Array.from({ length: n }, (_, i) => ({
    t: start.t + i * 4000,
    lat: start.lat + (wiggle ? Math.sin(i / 5) * wiggle : 0),
    lng: start.lng + (speed * 4 * i) / 80_000,
    speed,
  }));
}
const last = <T>(a: T[]) => a[a.length - 1]!;

describe("downsampleTrack", () => {
  it("returns short tracks whole", () => {
    const track = drive(10, { t: T0, lat: 43.6, lng: -79.4 }, 15);
    expect(downsampleTrack(track, 1000)).toEqual(track);
  });

  it("answers at most `max` points of a 10-hour day, oldest first, ends kept", () => {
    const day = drive(9000, { t: T0, lat: 43.6, lng: -79.4 }, 15, 0.01);
    const out = downsampleTrack(day, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.length).toBeGreaterThan(900);
    expect(out[0]).toBe(day[0]);
    expect(last(out)).toBe(last(day));
    for (let i = 1; i < out.length; i++) expect(out[i]!.t).toBeGreaterThan(out[i - 1]!.t);
  });

  it("keeps the point that shapes the path (a detour) and drops the ones on a straight line", () => {
    const line = drive(101, { t: T0, lat: 43.6, lng: -79.4 }, 15);
    line[50] = { ...line[50]!, lat: 43.61 }; // ~1 km off the road
    const out = downsampleTrack(line, 5);
    expect(out).toContain(line[50]);
    expect(out).toContain(line[0]);
    expect(out).toContain(line[100]);
  });

  it("keeps where each stop starts and ends, so the stop lasts as long as it did", () => {
    const before = drive(3000, { t: T0, lat: 43.6, lng: -79.4 }, 15, 0.005);
    const end = last(before);
    const stop = drive(150, { t: end.t + 4000, lat: end.lat, lng: end.lng }, 0); // 10 minutes parked
    const after = drive(3000, { t: last(stop).t + 4000, lat: end.lat, lng: end.lng }, 15, 0.005);
    const out = downsampleTrack([...before, ...stop, ...after], 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).toContain(stop[0]);
    expect(out).toContain(last(stop));
    expect(out).toContain(end);
    expect(out).toContain(after[0]);
  });

  it("with more stops than room, still answers at most `max` points", () => {
    const stopGo = Array.from({ length: 2000 }, (_, i) => ({
      t: T0 + i * 4000,
      lat: 43.6,
      lng: -79.4 + i * 1e-4,
      speed: i % 2 ? 10 : 0,
    }));
    const out = downsampleTrack(stopGo, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out[0]).toBe(stopGo[0]);
    expect(last(out)).toBe(last(stopGo));
  });
});

describe("stopBoundaries", () => {
  it("marks the ends and both sides of every change between moving and standing still", () => {
    const speeds = [10, 10, 0, 0, 0, 12, 12];
    const points = speeds.map((speed, i) => ({ t: i, lat: 0, lng: i, speed }));
    expect(stopBoundaries(points)).toEqual([0, 1, 2, 4, 5, 6]);
  });
});
