import { describe, expect, it } from "vitest";
import { daySpan, minutesOf, placeOnSpan, stopRange } from "./timeline";

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
