import { describe, expect, it } from "vitest";
import { localTimeOn } from "./planned-job";

describe("a job's window as instants", () => {
  it("reads HH:MM on the job's date in the workspace's zone", () => {
    expect(new Date(localTimeOn("2026-10-13", "09:30", "America/Chicago")).toISOString()).toBe(
      "2026-10-13T14:30:00.000Z",
    );
    expect(new Date(localTimeOn("2026-12-01", "09:30", "America/Chicago")).toISOString()).toBe(
      "2026-12-01T15:30:00.000Z",
    );
  });

  it("keeps the wall-clock time on the day the clocks change", () => {
    // Chicago goes from CDT (-5) to CST (-6) at 02:00 on 1 November 2026
    expect(new Date(localTimeOn("2026-11-01", "10:00", "America/Chicago")).toISOString()).toBe(
      "2026-11-01T16:00:00.000Z",
    );
    expect(new Date(localTimeOn("2026-03-08", "10:00", "America/Chicago")).toISOString()).toBe(
      "2026-03-08T15:00:00.000Z",
    );
  });
});
