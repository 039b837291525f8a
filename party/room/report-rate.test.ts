import { describe, expect, it } from "vitest";
import { ReportRate } from "./report-rate";

// How busy a workspace is now, which paces its pokes (party/fleet-room.ts pokeIntervalMs).
describe("ReportRate", () => {
  it("answers the reports a second of the last span, or of the current one once it is higher", () => {
    const rate = new ReportRate();
    const t0 = 1_000_000;
    rate.add(1, t0); // starts a span
    rate.add(999, t0 + 1_000);
    expect(rate.perSecond(t0 + 2_000)).toBe(200); // 1,000 in the current span already
    expect(rate.perSecond(t0 + 5_500)).toBe(200); // the span that just ended
    rate.add(10, t0 + 6_000);
    expect(rate.perSecond(t0 + 10_600)).toBe(2); // the next span had 10
  });

  it("forgets a busy spell once a span has gone by quiet", () => {
    const rate = new ReportRate();
    rate.add(1_000, 0);
    rate.add(1, 5_000);
    expect(rate.perSecond(20_000)).toBe(0);
  });
});
