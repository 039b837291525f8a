import { describe, expect, it } from "vitest";
import {
  dateText,
  dateTimeText,
  defaultHourCycle,
  timeText,
  wallClockText,
  windowText,
  zoneShortName,
  type WorkspaceClock,
} from "./clock";

/** One afternoon of issue 52: 21:19 UTC is 3:19 PM in Chicago in November. */
const ETA = Date.parse("2026-11-28T21:19:00Z");
const chicago12: WorkspaceClock = { timeZone: "America/Chicago", hourCycle: "h12", readerTimeZone: "America/Chicago" };
const chicago24: WorkspaceClock = { ...chicago12, hourCycle: "h23" };

describe("one clock per workspace", () => {
  it("writes an instant on the workspace's clock whatever the zone it is computed in", () => {
    expect(timeText(ETA, chicago12)).toBe("3:19 PM");
    expect(timeText(ETA, chicago24)).toBe("15:19");
    const berlin: WorkspaceClock = { timeZone: "Europe/Berlin", hourCycle: "h23", readerTimeZone: "Europe/Berlin" };
    expect(timeText(ETA, berlin)).toBe("22:19");
    // Midnight and noon are where a 12-hour clock goes wrong most often.
    expect(timeText(Date.parse("2026-11-28T06:00:00Z"), chicago12)).toBe("12:00 AM");
    expect(timeText(Date.parse("2026-11-28T18:00:00Z"), chicago12)).toBe("12:00 PM");
    expect(timeText(Date.parse("2026-11-28T06:05:00Z"), chicago24)).toBe("00:05");
    expect(timeText(Date.parse("2026-11-28T21:19:30Z"), chicago12, { seconds: true })).toBe("3:19:30 PM");
  });

  it("names the workspace's zone to a reader whose device is elsewhere, and only then", () => {
    expect(timeText(ETA, { ...chicago12, readerTimeZone: "Europe/Berlin" })).toBe("3:19 PM CST");
    expect(timeText(ETA, { ...chicago24, readerTimeZone: "UTC" })).toBe("15:19 CST");
    // Another name for the same offset is not elsewhere: Winnipeg's clock reads as Chicago's.
    expect(timeText(ETA, { ...chicago12, readerTimeZone: "America/Winnipeg" })).toBe("3:19 PM");
    // An e-mail's reader is unknown: the zone is always named.
    expect(timeText(ETA, { timeZone: "America/Chicago", hourCycle: "h12" })).toBe("3:19 PM CST");
  });

  it("follows the clocks across a daylight-saving change", () => {
    // 8 March 2026, Chicago: 01:59 CST is followed by 03:00 CDT.
    const before = Date.parse("2026-03-08T07:59:00Z");
    const after = Date.parse("2026-03-08T08:00:00Z");
    const reader = { timeZone: "America/Chicago", hourCycle: "h12" } as const;
    expect(timeText(before, reader)).toBe("1:59 AM CST");
    expect(timeText(after, reader)).toBe("3:00 AM CDT");
    expect(zoneShortName(after, "America/Chicago")).toBe("CDT");
    // 1 November 2026: 1:30 comes twice, once in each offset.
    expect(timeText(Date.parse("2026-11-01T06:30:00Z"), reader)).toBe("1:30 AM CDT");
    expect(timeText(Date.parse("2026-11-01T07:30:00Z"), reader)).toBe("1:30 AM CST");
  });

  it("writes every date one way, the workspace's day of an instant", () => {
    // 02:00 UTC on the 29th is still the 28th in Chicago.
    const lateEvening = Date.parse("2026-11-29T02:00:00Z");
    expect(dateText(lateEvening, chicago12)).toBe("2026-11-28");
    expect(dateText("2026-12-05", chicago12)).toBe("2026-12-05");
    expect(dateTimeText(lateEvening, chicago12)).toBe("2026-11-28 8:00 PM");
    expect(dateTimeText(lateEvening, { ...chicago24, readerTimeZone: undefined })).toBe("2026-11-28 20:00 CST");
  });

  it("writes a job's window, stored as wall-clock times, in the same hour cycle as its ETA", () => {
    expect(windowText("21:15", "23:30", chicago12)).toBe("9:15 PM–11:30 PM");
    expect(windowText("21:15", "23:30", chicago24)).toBe("21:15–23:30");
    expect(windowText("09:00", null, chicago12)).toBe("from 9:00 AM");
    expect(windowText(null, "11:00", chicago24)).toBe("by 11:00");
    expect(windowText(null, null, chicago12)).toBe("");
    expect(wallClockText("00:30", "h12")).toBe("12:30 AM");
    // On a day, named for a reader elsewhere as the ETA beside it is.
    expect(windowText("21:15", "23:30", { ...chicago12, readerTimeZone: "Asia/Tokyo" }, "2026-11-28")).toBe(
      "9:15 PM–11:30 PM CST",
    );
    expect(windowText("21:15", "23:30", chicago12, "2026-11-28")).toBe("9:15 PM–11:30 PM");
  });

  it("defaults to the hour cycle of the zone's country", () => {
    expect(defaultHourCycle("America/Chicago")).toBe("h12");
    expect(defaultHourCycle("America/Indiana/Indianapolis")).toBe("h12");
    expect(defaultHourCycle("Pacific/Honolulu")).toBe("h12");
    expect(defaultHourCycle("Australia/Sydney")).toBe("h12");
    expect(defaultHourCycle("Europe/Berlin")).toBe("h23");
    expect(defaultHourCycle("America/Mexico_City")).toBe("h23");
    expect(defaultHourCycle("UTC")).toBe("h23");
  });
});
