import { describe, expect, it } from "vitest";
import type { PlaceGeometry } from "../../shared/places/places";
import { emptyPlaceState, evaluatePlaces, type PlaceEvent, type PlaceFix, type PlaceState } from "./evaluate";
import { PlaceIndex } from "./place-index";

const M_PER_DEG = 111_319.49;
const CHICAGO = { latitude: 41.88, longitude: -87.63 };

/** A position `east` and `north` metres from an origin. */
function offset(origin: { latitude: number; longitude: number }, east: number, north: number) {
  return {
    latitude: origin.latitude + north / M_PER_DEG,
    longitude: origin.longitude + east / (M_PER_DEG * Math.cos((origin.latitude * Math.PI) / 180)),
  };
}

const circle = (center: { latitude: number; longitude: number }, radius: number): PlaceGeometry => ({
  type: "Circle",
  center: [center.longitude, center.latitude],
  radius,
});

function run(index: PlaceIndex, fixes: PlaceFix[], state: PlaceState = emptyPlaceState()) {
  const events: PlaceEvent[] = [];
  for (const fix of fixes) {
    const out = evaluatePlaces(state, fix, index);
    state = JSON.parse(JSON.stringify(out.state)) as PlaceState; // what the object persists
    events.push(...out.events);
  }
  return { state, events };
}

const fixAt = (time: number, p: { latitude: number; longitude: number }, accuracy: number | null = 5): PlaceFix => ({
  time,
  ...p,
  accuracy,
});

describe("place enter and exit", () => {
  const index = new PlaceIndex([{ id: "depot", geometry: circle(CHICAGO, 100) }]);

  it("enters when a fix is inside, at the interpolated crossing of the edge", () => {
    const { events } = run(index, [fixAt(0, offset(CHICAGO, -300, 0)), fixAt(20_000, offset(CHICAGO, 0, 0))]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "enter", placeId: "depot" });
    // the edge is 200 m of the 300 m travelled: two thirds of the way
    expect(events[0]!.at).toBeCloseTo(13_333, -1);
  });

  it("exits once the vehicle has been clearly outside for the dwell time, dated at the crossing", () => {
    const { events, state } = run(index, [
      fixAt(0, CHICAGO),
      fixAt(10_000, offset(CHICAGO, 200, 0)),
      fixAt(40_000, offset(CHICAGO, 800, 0)),
      fixAt(75_000, offset(CHICAGO, 1500, 0)),
    ]);
    expect(events.map((e) => e.type)).toEqual(["enter", "exit"]);
    expect(events[1]!.at).toBe(5_000);
    expect(state.inside).toEqual({});
  });

  it("does not flap for a vehicle parked at the edge whose fixes wander within their accuracy", () => {
    const fixes: PlaceFix[] = [];
    for (let i = 0; i < 200; i++) {
      const east = 100 + (i % 2 === 0 ? -12 : 14) + Math.sin(i) * 5; // 83..119 m from the centre
      fixes.push(fixAt(i * 10_000, offset(CHICAGO, east, 0), 25));
    }
    const { events } = run(index, [fixAt(-10_000, offset(CHICAGO, 0, 0)), ...fixes]);
    expect(events.map((e) => e.type)).toEqual(["enter"]);
  });

  it("does not exit for a single wild fix beyond the accuracy (the dwell time)", () => {
    const { events } = run(index, [
      fixAt(0, CHICAGO, 10),
      fixAt(10_000, offset(CHICAGO, 400, 0), 10),
      fixAt(20_000, offset(CHICAGO, 20, 0), 10),
      fixAt(90_000, offset(CHICAGO, 10, 0), 10),
    ]);
    expect(events.map((e) => e.type)).toEqual(["enter"]);
  });

  it("ignores a fix older than the last one (late history is not news)", () => {
    const first = run(index, [fixAt(100_000, CHICAGO)]);
    const late = evaluatePlaces(first.state, fixAt(50_000, offset(CHICAGO, 5000, 0)), index);
    expect(late.events).toEqual([]);
    expect(late.state).toBe(first.state);
  });

  it("forgets a place that was deleted, without an exit", () => {
    const inside = run(index, [fixAt(0, CHICAGO)]).state;
    const { events, state } = evaluatePlaces(inside, fixAt(10_000, CHICAGO), new PlaceIndex([]));
    expect(events).toEqual([]);
    expect(state.inside).toEqual({});
  });
});

describe("pass-through between two fixes", () => {
  const gate = new PlaceIndex([{ id: "gate", geometry: circle(CHICAGO, 30) }]);

  it("records an enter and an exit at interpolated times when the segment crosses a small place", () => {
    // 30 m/s past a 60 m gate between two fixes 20 s apart, both 300 m out
    const { events, state } = run(gate, [fixAt(0, offset(CHICAGO, -300, 0)), fixAt(20_000, offset(CHICAGO, 300, 0))]);
    expect(events.map((e) => [e.type, e.placeId])).toEqual([
      ["enter", "gate"],
      ["exit", "gate"],
    ]);
    expect(events[0]!.at).toBeCloseTo(9_000, -1);
    expect(events[1]!.at).toBeCloseTo(11_000, -1);
    expect(state.inside).toEqual({});
  });

  it("does not count a graze shallower than the GPS noise floor", () => {
    const { events } = run(gate, [fixAt(0, offset(CHICAGO, -300, 25)), fixAt(20_000, offset(CHICAGO, 300, 25))]);
    expect(events).toEqual([]);
  });

  it("does not join fixes further apart than the segment limit with a straight line", () => {
    const { events } = run(gate, [fixAt(0, offset(CHICAGO, -300, 0)), fixAt(3_600_000, offset(CHICAGO, 300, 0))]);
    expect(events).toEqual([]);
  });
});

describe("shapes", () => {
  // a U open to the north: 300 m wide, its notch 100 m wide and 200 m deep; a 40 m hole in the west arm
  const ring = [
    [0, 0],
    [300, 0],
    [300, 300],
    [200, 300],
    [200, 100],
    [100, 100],
    [100, 300],
    [0, 300],
  ].map(([e, n]) => offset(CHICAGO, e!, n!));
  const hole = [
    [30, 150],
    [70, 150],
    [70, 190],
    [30, 190],
  ].map(([e, n]) => offset(CHICAGO, e!, n!));
  const toRing = (points: { latitude: number; longitude: number }[]) =>
    points.map((p) => [p.longitude, p.latitude] as [number, number]);
  const index = new PlaceIndex([
    { id: "yard", geometry: { type: "Polygon", coordinates: [toRing(ring), toRing(hole)] } },
  ]);
  const inside = (east: number, north: number) =>
    run(index, [fixAt(0, offset(CHICAGO, east, north))]).events.length === 1;

  it("knows a concave polygon's notch is outside and its arms inside", () => {
    expect(inside(150, 250)).toBe(false);
    expect(inside(150, 50)).toBe(true);
    expect(inside(250, 250)).toBe(true);
  });

  it("knows a hole is outside", () => {
    expect(inside(50, 170)).toBe(false);
    expect(inside(50, 120)).toBe(true);
  });

  it("counts a pass-through over both arms and the notch as one visit, first edge to last", () => {
    // west to east at 200 m north: into the west arm at 0, out at 100, in at 200, out at 300
    const { events } = run(index, [fixAt(0, offset(CHICAGO, -100, 250)), fixAt(50_000, offset(CHICAGO, 400, 250))]);
    expect(events.map((e) => e.type)).toEqual(["enter", "exit"]);
    expect(events[0]!.at).toBeCloseTo(10_000, -2);
    expect(events[1]!.at).toBeCloseTo(40_000, -2);
  });
});

describe("the antimeridian", () => {
  const fiji = { latitude: -17, longitude: 179.999 };
  const acrossIt: PlaceGeometry = {
    type: "Polygon",
    coordinates: [
      [
        [179.99, -17.01],
        [-179.99, -17.01],
        [-179.99, -16.99],
        [179.99, -16.99],
      ],
    ],
  };

  it("finds a circle that straddles it from either side", () => {
    const index = new PlaceIndex([{ id: "wharf", geometry: circle(fiji, 500) }]);
    expect(run(index, [fixAt(0, { latitude: -17, longitude: -179.999 })]).events).toHaveLength(1);
    expect(run(index, [fixAt(0, { latitude: -17, longitude: 179.998 })]).events).toHaveLength(1);
    expect(run(index, [fixAt(0, { latitude: -17, longitude: -179.9 })]).events).toHaveLength(0);
  });

  it("treats a polygon drawn across it as the small shape it is", () => {
    const index = new PlaceIndex([{ id: "strip", geometry: acrossIt }]);
    expect(run(index, [fixAt(0, { latitude: -17, longitude: 179.995 })]).events).toHaveLength(1);
    expect(run(index, [fixAt(0, { latitude: -17, longitude: -179.995 })]).events).toHaveLength(1);
    expect(run(index, [fixAt(0, { latitude: -17, longitude: 0 })]).events).toHaveLength(0);
  });

  it("sees a pass-through across it", () => {
    const index = new PlaceIndex([{ id: "strip", geometry: acrossIt }]);
    const { events } = run(index, [
      fixAt(0, { latitude: -17, longitude: 179.98 }),
      fixAt(20_000, { latitude: -17, longitude: -179.98 }),
    ]);
    expect(events.map((e) => e.type)).toEqual(["enter", "exit"]);
    expect(events[0]!.at).toBeCloseTo(5_000, -2);
    expect(events[1]!.longitude).toBeCloseTo(-179.99, 5);
  });
});

describe("the index", () => {
  it("tests only the places near a fix among a thousand", () => {
    const places = Array.from({ length: 1000 }, (_, i) => ({
      id: `p${i}`,
      geometry: circle(offset(CHICAGO, (i % 40) * 1000, Math.floor(i / 40) * 1000), 200),
    }));
    const index = new PlaceIndex(places);
    expect(index.search(CHICAGO.longitude, CHICAGO.latitude, CHICAGO.longitude, CHICAGO.latitude).size).toBe(1);
    const { events } = run(index, [fixAt(0, offset(CHICAGO, 5000, 3000))]);
    expect(events.map((e) => e.placeId)).toEqual(["p125"]);
  });
});
