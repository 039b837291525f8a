import { describe, expect, it } from "vitest";
import { daySpan, laneLayout, minuteAt, minutesOf, orderAfterDrop, placeOnSpan, stopRange } from "./timeline";

describe("the dispatch page's day timeline", () => {
  it("reads a window's times, and refuses anything but HH:MM", () => {
    expect(minutesOf("09:30")).toBe(570);
    expect(minutesOf("7:05")).toBe(425);
    expect(minutesOf("24:00")).toBeNull();
    expect(minutesOf("9.30")).toBeNull();
    expect(minutesOf(null)).toBeNull();
  });

  it("draws a stop over its window, or its duration from the one end it has", () => {
    expect(stopRange({ windowStart: "09:00", windowEnd: "11:00" })).toEqual({ start: 540, end: 660 });
    expect(stopRange({ windowStart: "09:00", durationMinutes: 20 })).toEqual({ start: 540, end: 560 });
    expect(stopRange({ windowEnd: "12:00", durationMinutes: 15 })).toEqual({ start: 705, end: 720 });
    expect(stopRange({})).toBeNull();
  });

  it("shows the working day, widened to whole hours for a stop outside it", () => {
    expect(daySpan([])).toEqual({ start: 360, end: 1200 });
    expect(daySpan([{ windowStart: "05:40", windowEnd: "06:10" }, { windowStart: "21:15" }])).toEqual({
      start: 300,
      end: 1320,
    });
  });

  it("places a stop as a share of the span, never off its edge nor too thin to see", () => {
    const span = { start: 360, end: 1200 };
    expect(placeOnSpan({ start: 360, end: 570 }, span)).toEqual({ left: 0, width: 25 });
    expect(placeOnSpan({ start: 1199, end: 1200 }, span).width).toBeGreaterThanOrEqual(0.8);
  });
});

const stop = (id: string, windowStart?: string, windowEnd?: string) => ({ id, windowStart, windowEnd });

describe("the day timeline's lanes: overlapping windows stacked, none covering another (issue 53)", () => {
  it("puts a long window that spans four short ones in a lane of its own (the '6 over stops 2–5' of the demo)", () => {
    const stops = [
      stop("1", "07:00", "08:00"),
      stop("2", "09:00", "10:00"),
      stop("3", "10:00", "11:00"),
      stop("4", "11:00", "12:00"),
      stop("5", "12:00", "13:00"),
      stop("6", "09:00", "17:00"),
    ];
    const { lanes, count } = laneLayout(stops);
    expect(count).toBe(2);
    expect(["1", "2", "3", "4", "5"].map((id) => lanes.get(id))).toEqual([0, 0, 0, 0, 0]);
    expect(lanes.get("6")).toBe(1);
  });

  it("gives as many lanes as windows open at one moment, and reuses a lane once it is free", () => {
    const { lanes, count } = laneLayout([
      stop("a", "09:00", "12:00"),
      stop("b", "10:00", "11:00"),
      stop("c", "10:30", "13:00"),
      stop("d", "11:00", "11:30"),
    ]);
    expect(count).toBe(3);
    expect(Object.fromEntries(lanes)).toEqual({ a: 0, b: 1, c: 2, d: 1 });
  });

  it("never gives two overlapping stops one lane, in any order they come", () => {
    const stops = [
      stop("x", "13:00", "15:00"),
      stop("y", "08:00", "14:00"),
      stop("z", "14:30", "16:00"),
      stop("w", "08:30", "09:00"),
      stop("v", "12:00"),
    ];
    const { lanes } = laneLayout(stops);
    for (const a of stops)
      for (const b of stops) {
        const ra = stopRange(a)!;
        const rb = stopRange(b)!;
        const overlap = a !== b && ra.start < rb.end && rb.start < ra.end;
        if (overlap) expect(lanes.get(a.id), `${a.id} and ${b.id}`).not.toBe(lanes.get(b.id));
      }
  });

  it("leaves stops without a window out, and has one lane for an empty row", () => {
    expect(laneLayout([stop("n")])).toEqual({ lanes: new Map(), count: 1 });
  });
});

describe("dropping a stop on a vehicle's row of the timeline", () => {
  const row = [stop("a", "09:00", "10:00"), stop("n"), stop("b", "12:00", "13:00"), stop("c", "15:00", "16:00")];

  it("puts it before the first stop whose window starts later, or last", () => {
    expect(orderAfterDrop(row, "x", 11 * 60)).toEqual(["a", "n", "x", "b", "c"]);
    expect(orderAfterDrop(row, "x", 8 * 60)).toEqual(["x", "a", "n", "b", "c"]);
    expect(orderAfterDrop(row, "x", 17 * 60)).toEqual(["a", "n", "b", "c", "x"]);
  });

  it("moves a stop of the row itself, its windowless neighbour keeping its place", () => {
    expect(orderAfterDrop(row, "a", 13 * 60)).toEqual(["n", "b", "a", "c"]);
  });

  it("reads the minute under the pointer, clamped to the day shown", () => {
    const span = { start: 360, end: 1200 };
    expect(minuteAt(0.5, span)).toBe(780);
    expect(minuteAt(-0.2, span)).toBe(360);
    expect(minuteAt(1.5, span)).toBe(1200);
  });
});
