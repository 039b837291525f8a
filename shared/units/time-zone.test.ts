import { describe, expect, it } from "vitest";
import {
  addDays,
  dayOf,
  daysFrom,
  endOfDay,
  isoWithOffset,
  isTimeZone,
  localClock,
  offsetMinutes,
  startOfDay,
} from "./time-zone";

const HOUR = 3_600_000;

describe("workspace time zones", () => {
  it("accepts IANA names and refuses anything else", () => {
    expect(isTimeZone("America/Chicago")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("names the local day, not the UTC one", () => {
    // 02:00 UTC on 14 October is still the evening of the 13th in Chicago.
    const t = Date.parse("2026-10-14T02:00:00Z");
    expect(dayOf(t, "America/Chicago")).toBe("2026-10-13");
    expect(dayOf(t, "UTC")).toBe("2026-10-14");
    expect(dayOf(t, "Asia/Tokyo")).toBe("2026-10-14");
  });

  it("a spring-forward day is 23 hours long and a fall-back day 25", () => {
    expect(endOfDay("2026-03-08", "America/Chicago") - startOfDay("2026-03-08", "America/Chicago")).toBe(23 * HOUR);
    expect(endOfDay("2026-11-01", "America/Chicago") - startOfDay("2026-11-01", "America/Chicago")).toBe(25 * HOUR);
    expect(endOfDay("2026-11-02", "America/Chicago") - startOfDay("2026-11-02", "America/Chicago")).toBe(24 * HOUR);
    expect(startOfDay("2026-03-08", "America/Chicago")).toBe(Date.parse("2026-03-08T06:00:00Z"));
    expect(startOfDay("2026-03-09", "America/Chicago")).toBe(Date.parse("2026-03-09T05:00:00Z"));
    expect(endOfDay("2026-10-25", "Europe/Berlin") - startOfDay("2026-10-25", "Europe/Berlin")).toBe(25 * HOUR);
  });

  it("writes ISO 8601 with the offset in force at that instant", () => {
    expect(isoWithOffset(Date.parse("2026-03-08T07:59:59Z"), "America/Chicago")).toBe("2026-03-08T01:59:59-06:00");
    expect(isoWithOffset(Date.parse("2026-03-08T08:00:00Z"), "America/Chicago")).toBe("2026-03-08T03:00:00-05:00");
    expect(isoWithOffset(Date.parse("2026-07-01T00:00:00Z"), "Asia/Kolkata")).toBe("2026-07-01T05:30:00+05:30");
    expect(isoWithOffset(0, "UTC")).toBe("1970-01-01T00:00:00+00:00");
    expect(offsetMinutes(Date.parse("2026-01-01T00:00:00Z"), "America/Chicago")).toBe(-360);
  });

  it("counts calendar days and tells the local hour and weekday", () => {
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(daysFrom("2026-12-30", "2027-01-02")).toEqual(["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]);
    // Monday 23 November 2026, 07:30 in Chicago.
    expect(localClock(Date.parse("2026-11-23T13:30:00Z"), "America/Chicago")).toEqual({
      hour: 7,
      weekday: 1,
      day: "2026-11-23",
    });
  });
});
