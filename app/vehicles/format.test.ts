import { describe, expect, it } from "vitest";
import {
  dayHeading,
  duration,
  formatType,
  identityParts,
  hoursMinutes,
  miles,
  mph,
  orDash,
  percent,
  statusLabel,
} from "./format";

describe("vehicle display rules", () => {
  it("formats types with spaces and capitals, except SUV", () => {
    expect(formatType("PICKUP_TRUCK")).toBe("Pickup Truck");
    expect(formatType("SUV")).toBe("SUV");
    expect(formatType("compact_suv")).toBe("Compact SUV");
    expect(formatType(null)).toBe("-");
  });

  it("lists only the known parts of year, make, model and VIN", () => {
    expect(identityParts({ year: 2021, make: "Ford", model: "F-150", vin: "1FTFW1E50PFA12345" })).toEqual([
      "2021",
      "Ford",
      "F-150",
      "1FTFW1E50PFA12345",
    ]);
    expect(identityParts({ year: null, make: "Ford", model: "", vin: "1FTFW1E50PFA12345" })).toEqual([
      "Ford",
      "1FTFW1E50PFA12345",
    ]);
    expect(identityParts({ year: null, make: null, model: null, vin: null })).toEqual([]);
  });

  it("shows a dash for empty values", () => {
    expect([orDash(null), orDash(""), orDash(undefined), orDash(0), orDash("Ann")]).toEqual([
      "-",
      "-",
      "-",
      "0",
      "Ann",
    ]);
  });

  it("converts speed to mph, odometer to miles with separators, fuel to percent", () => {
    expect(mph(26.8224)).toBe("60 mph");
    expect(miles(1_609_344 * 12.345)).toBe("12,345 mi");
    expect(percent(64.4)).toBe("64%");
    expect([mph(null), miles(null), percent(null)]).toEqual(["-", "-", "-"]);
  });

  it("writes durations as days/hours, hours/minutes or minutes", () => {
    expect(duration(5 * 60_000)).toBe("5m");
    expect(duration((2 * 60 + 7) * 60_000)).toBe("2h 7m");
    expect(duration((3 * 24 + 4) * 3_600_000)).toBe("3d 4h");
    expect(hoursMinutes((26 * 60 + 3) * 60_000)).toBe("26h 3m");
  });

  it("heads timeline days with Today or the day in the one date format", () => {
    const now = Date.parse("2026-11-22T21:00:00Z");
    const chicago = { timeZone: "America/Chicago" };
    expect(dayHeading(Date.parse("2026-11-22T14:00:00Z"), now, chicago)).toBe("Today");
    expect(dayHeading(Date.parse("2026-11-03T14:00:00Z"), now, chicago)).toBe("2026-11-03");
  });

  it("groups the timeline by the workspace's day, not the viewer's machine's", () => {
    // 03:30 UTC on 1 November is still 31 October in Chicago, and the 1st in Berlin.
    const t = Date.parse("2026-11-01T03:30:00Z");
    const chicago = { timeZone: "America/Chicago" };
    expect(dayHeading(t, Date.parse("2026-11-05T12:00:00Z"), chicago)).toBe("2026-10-31");
    expect(dayHeading(t, Date.parse("2026-11-05T12:00:00Z"), { timeZone: "Europe/Berlin" })).toBe("2026-11-01");
    // "Today" is the workspace's today: 23:00 in Chicago on the same Chicago day as 03:30 UTC.
    expect(dayHeading(t, Date.parse("2026-11-01T04:00:00Z"), chicago)).toBe("Today");
    // The fall-back night: 01:30 happens twice in Chicago; both are the 1st of November.
    expect(dayHeading(Date.parse("2026-11-01T06:30:00Z"), 0, chicago)).toBe("2026-11-01");
    expect(dayHeading(Date.parse("2026-11-01T07:30:00Z"), 0, chicago)).toBe("2026-11-01");
  });

  it("shows the ignition-off status as Parked", () => {
    expect(statusLabel("off")).toBe("Parked");
  });
});
