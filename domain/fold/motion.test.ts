import { describe, expect, it } from "vitest";
import { advance, initialState, type EventUpsert, type MotionReport } from "./motion";

// Recorded-style tracks: one report every 10 s, moving ~1 km/min along a street grid.
const T0 = Date.parse("2026-11-02T07:30:00Z");
const STEP = 10_000;
const at = (i: number, lat: number, lon: number, speed: number, ignition: boolean | null = true): MotionReport => ({
  time: T0 + i * STEP,
  latitude: lat,
  longitude: lon,
  speed,
  ignition,
});

/** Runs a track through the detector; returns the final version of every event, in order. */
function detect(track: MotionReport[]) {
  let ids = 0;
  const newId = () => `e${String(++ids).padStart(3, "0")}`;
  const first = initialState(track[0]!, newId);
  const events = new Map<string, EventUpsert>(first.events.map((e) => [e.id, e]));
  let state = first.state;
  for (const report of track.slice(1)) {
    const step = advance(state, report, newId);
    state = step.state;
    for (const e of step.events) events.set(e.id, e);
  }
  return [...events.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Parked for `n` reports at a point, with small GPS jitter. */
const park = (from: number, n: number, lat: number, lon: number, ignition: boolean | null = false) =>
  Array.from({ length: n }, (_, k) => at(from + k, lat + (k % 2) * 0.00005, lon, 0, ignition));
/** Driving north ~150 m per report (15 m/s). */
const drive = (from: number, n: number, lat: number, lon: number, ignition: boolean | null = true) =>
  Array.from({ length: n }, (_, k) => at(from + k, lat + (k + 1) * 0.00135, lon, 15, ignition));

describe("trip and stop detection", () => {
  it("turns a commute with a coffee stop into STOP, TRANSIT, STOP, TRANSIT, STOP", () => {
    const track = [
      ...park(0, 10, 40.0, -74.0), // at home
      ...drive(10, 30, 40.0, -74.0), // 4.5 km
      ...park(40, 40, 40.0405, -74.0), // 400 s at the café
      ...drive(80, 20, 40.0405, -74.0),
      ...park(100, 30, 40.0675, -74.0), // at work
    ];
    const events = detect(track);
    expect(events.map((e) => e.type)).toEqual(["STOP", "TRANSIT", "STOP", "TRANSIT", "STOP"]);
    const [home, commute, cafe, , work] = events;
    // The first drive report is still within 200 m: the stop ends when it was last seen there.
    expect(home!.endTime).toBe(T0 + 10 * STEP);
    expect(commute!.startTime).toBe(home!.endTime);
    expect(commute!.distance).toBeGreaterThan(4000);
    expect(commute!.distance).toBeLessThan(4800);
    expect(commute!.averageSpeed).toBeGreaterThan(12);
    expect(cafe!.startTime).toBe(commute!.endTime);
    expect(cafe!.latitude).toBeCloseTo(40.0405, 3);
    expect(work!.endTime).toBeNull(); // still parked
  });

  it("gives a trip still under way its average speed so far, and no end", () => {
    const events = detect([...park(0, 5, 40.0, -74.0), ...drive(5, 10, 40.0, -74.0)]);
    const trip = events.at(-1)!;
    expect(trip.type).toBe("TRANSIT");
    expect(trip.endTime).toBeNull();
    // ~150 m every 10 s: about 15 m/s once under way.
    expect(trip.averageSpeed).toBeGreaterThan(10);
    expect(trip.averageSpeed).toBeLessThan(16);
  });

  it("does not call a short wait at a light a stop", () => {
    const track = [...drive(0, 10, 40, -74), ...park(10, 6, 40.0135, -74, true), ...drive(16, 10, 40.0135, -74)];
    expect(detect(track).map((e) => e.type)).toEqual(["TRANSIT"]);
  });

  it("treats a long idle with the engine on as a stop", () => {
    const track = [...drive(0, 10, 40, -74), ...park(10, 60, 40.0135, -74, true)];
    expect(detect(track).map((e) => e.type)).toEqual(["TRANSIT", "STOP"]);
  });

  it("calls moving with the ignition off a tow", () => {
    const track = [...park(0, 5, 40, -74, false), ...drive(5, 20, 40, -74, false), ...park(25, 30, 40.027, -74, false)];
    expect(detect(track).map((e) => e.type)).toEqual(["STOP", "TOW", "STOP"]);
  });

  it("counts a data gap of over an hour as a stop where the vehicle was last seen, until it reports again", () => {
    const before = drive(0, 10, 40, -74);
    const last = before.at(-1)!;
    const after = drive(400, 10, 40.2, -74); // 4,000 s later, far away
    const events = detect([...before, ...after]);
    expect(events.map((e) => e.type)).toEqual(["TRANSIT", "STOP", "TRANSIT"]);
    expect(events[1]).toMatchObject({ startTime: last.time, endTime: after[0]!.time, latitude: last.latitude });
    expect(events[2]).toMatchObject({ startTime: after[0]!.time, latitude: after[0]!.latitude });
  });

  it("does not call a gap of under an hour a stop", () => {
    const before = drive(0, 10, 40, -74);
    const after = drive(350, 10, 40.02, -74); // 3,400 s later
    expect(detect([...before, ...after]).map((e) => e.type)).toEqual(["TRANSIT"]);
  });

  it("does not call switching off while rolling to a halt a tow", () => {
    const rolling = at(10, 40.0136, -74, 2, false);
    const track = [...drive(0, 10, 40, -74), rolling, ...park(11, 30, 40.0137, -74, false)];
    expect(detect(track).map((e) => e.type)).toEqual(["TRANSIT", "STOP"]);
  });
});
