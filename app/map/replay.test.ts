import { describe, expect, it } from "vitest";
import { advance, positionAt, startOfDay } from "./replay";

const path = [
  { t: 1000, lat: 43, lng: -79, speed: 10 },
  { t: 5000, lat: 43.004, lng: -79, speed: 20 },
  { t: 6000, lat: 43.004, lng: -78.99, speed: null },
];

describe("positionAt", () => {
  it("is on the line between two reports in proportion to the time elapsed, speed likewise", () => {
    const p = positionAt(path, 2000)!;
    expect(p.lat).toBeCloseTo(43.001, 9);
    expect(p.lng).toBe(-79);
    expect(p.speed).toBeCloseTo(12.5, 9);
    expect(p.t).toBe(2000);
  });

  it("is exactly at a report at its time", () => {
    expect(positionAt(path, 5000)).toMatchObject({
      lat: 43.004,
      lng: -79,
      speed: 20,
    });
  });

  it("stays at the ends before the start and after the end", () => {
    expect(positionAt(path, 0)).toMatchObject({ lat: 43, lng: -79, t: 0 });
    expect(positionAt(path, 9999)).toMatchObject({
      lat: 43.004,
      lng: -78.99,
      t: 9999,
    });
  });

  it("takes the known speed when one side has none, and answers null for no path", () => {
    expect(positionAt(path, 5500)!.speed).toBe(20);
    expect(positionAt([], 1)).toBeNull();
  });

  it("waits at a stop: two reports at one place keep the marker there between them", () => {
    const stop = [
      { t: 0, lat: 1, lng: 1, speed: 0 },
      { t: 600_000, lat: 1, lng: 1, speed: 0 },
    ];
    expect(positionAt(stop, 300_000)).toMatchObject({
      lat: 1,
      lng: 1,
      speed: 0,
    });
  });
});

describe("advance", () => {
  it("moves the replay clock by wall time times the speed, never past the end", () => {
    expect(advance(1000, 500, 60, 100_000)).toBe(31_000);
    expect(advance(1000, 500, 1, 100_000)).toBe(1500);
    expect(advance(90_000, 1000, 60, 100_000)).toBe(100_000);
  });
});

describe("startOfDay", () => {
  it("is local midnight of the given time", () => {
    const noon = new Date(2026, 10, 23, 12, 30).getTime();
    expect(startOfDay(noon)).toBe(new Date(2026, 10, 23).getTime());
  });
});
