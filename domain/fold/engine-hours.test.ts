import { describe, expect, it } from "vitest";
import { advanceEngineHours, initialEngineHours, MAX_GAP_MS } from "./engine-hours";

// Engine hours (docs/decisions/0032), the pure rule; ingestion keeping and flushing them is
// party/live-fleet/engine-hours.worker.test.ts.
const T0 = Date.UTC(2026, 0, 5, 8);
const MIN = 60_000;

describe("engine hours", () => {
  it("count the time from a fix with the ignition on to the next one, and not a gap the tracker was silent", () => {
    let s = initialEngineHours();
    s = advanceEngineHours(s, T0, true);
    s = advanceEngineHours(s, T0 + 5 * MIN, true);
    s = advanceEngineHours(s, T0 + 7 * MIN, false); // ran until this report said off
    s = advanceEngineHours(s, T0 + 30 * MIN, true); // off meanwhile
    expect(s.seconds).toBe(7 * 60);
    s = advanceEngineHours(s, T0 + 30 * MIN + MAX_GAP_MS + 1, true); // silent too long: unknown, not counted
    expect(s.seconds).toBe(7 * 60);
  });
});
