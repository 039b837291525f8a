import { describe, expect, it } from "vitest";
import { DEFAULT_CLOCK_BOUNDS, EARLIEST_DEVICE_TIME, judgeClock } from "./device-clock";
import { beforeDeviceEpoch, readDeviceTime } from "./device-time";

const NOW = Date.parse("2026-11-27T12:00:00Z");

describe("reading a device time", () => {
  it("reads Unix seconds, Unix milliseconds and ISO 8601 alike", () => {
    const at = Date.parse("2026-11-27T11:59:00Z");
    expect(readDeviceTime(at / 1000, NOW)).toBe(at);
    expect(readDeviceTime(String(at / 1000), NOW)).toBe(at);
    expect(readDeviceTime(at, NOW)).toBe(at);
    expect(readDeviceTime("2026-11-27T05:59:00-06:00", NOW)).toBe(at);
  });

  it("takes a missing time as now, as Traccar does", () => {
    for (const missing of [undefined, null, ""]) expect(readDeviceTime(missing, NOW)).toBe(NOW);
  });

  it("answers null for what is no time: text, infinities, beyond what a Date holds", () => {
    for (const bad of ["yesterday", "  ", -Infinity, Infinity, NaN, -9e15, 9e15, "+275761-01-01T00:00:00Z", {}, true])
      expect(readDeviceTime(bad, NOW)).toBeNull();
  });

  it("keeps a representable time before 2000 as it is, for the clock rule to judge", () => {
    expect(readDeviceTime(0, NOW)).toBe(0);
    expect(readDeviceTime("1999-08-22T00:00:00Z", NOW)).toBe(Date.parse("1999-08-22T00:00:00Z"));
    expect(readDeviceTime(-1e12, NOW)).toBe(-1e12);
  });
});

describe("the device clock's bounds", () => {
  it("refuses as too_old every time before 2000-01-01, even with no INGEST_MAX_BEHIND_S", () => {
    expect(DEFAULT_CLOCK_BOUNDS.maxBehindMs).toBe(0);
    for (const t of [0, -8.64e15, EARLIEST_DEVICE_TIME - 1, NaN, -Infinity])
      expect(judgeClock(t, NOW, DEFAULT_CLOCK_BOUNDS)).toBe("too_old");
    expect(judgeClock(EARLIEST_DEVICE_TIME, NOW, DEFAULT_CLOCK_BOUNDS)).toBe("ok");
    expect(beforeDeviceEpoch(EARLIEST_DEVICE_TIME - 1)).toBe(true);
    expect(beforeDeviceEpoch(EARLIEST_DEVICE_TIME)).toBe(false);
  });

  it("still calls a time past now + the ahead bound clock_ahead", () => {
    expect(judgeClock(NOW + DEFAULT_CLOCK_BOUNDS.maxAheadMs + 1, NOW, DEFAULT_CLOCK_BOUNDS)).toBe("clock_ahead");
    expect(judgeClock(8.64e15, NOW, DEFAULT_CLOCK_BOUNDS)).toBe("clock_ahead");
    expect(judgeClock(NOW + DEFAULT_CLOCK_BOUNDS.maxAheadMs, NOW, DEFAULT_CLOCK_BOUNDS)).toBe("ok");
  });
});
