import { describe, expect, it } from "vitest";
import type { WorkspaceClock } from "../../shared/units/clock";
import { arrivingIn, customerStory, customerWindow, zoneLabel } from "./track-words";

/** A Chicago workspace on a 24-hour clock, read by a phone in Chicago. */
const chicago: WorkspaceClock = { timeZone: "America/Chicago", hourCycle: "h23", readerTimeZone: "America/Chicago" };
// 2026-11-28 14:24 in Chicago (UTC-6)
const now = Date.parse("2026-11-28T20:24:00Z");
const job = { window: { start: "14:00", end: "16:00" }, date: "2026-11-28" };
const story = (fields: Record<string, unknown>) =>
  customerStory({ ...job, status: "scheduled", ...fields }, now, chicago, "Acme Deliveries");
const everyWord = (s: ReturnType<typeof story>) => [s.headline, s.lead, s.detail].join(" ");

describe("the customer's page speaks a customer's words (issue 53)", () => {
  it("says how long until the vehicle arrives, and when, on the sender's clock", () => {
    const s = story({ status: "en_route", eta: now + 8 * 60_000 });
    expect(s).toEqual({
      headline: "On the way",
      lead: "Arriving in about 8 minutes",
      detail: "Expected at 14:32.",
      over: false,
    });
    expect(story({ status: "en_route", eta: now + 8 * 60_000, late: true }).detail).toBe(
      "Expected at 14:32, later than planned: sorry.",
    );
  });

  it("counts down in minutes, then hours, and never says a negative time", () => {
    expect(arrivingIn(now + 30_000, now)).toBe("Arriving any minute now");
    expect(arrivingIn(now - 120_000, now)).toBe("Arriving any minute now");
    expect(arrivingIn(now + 45 * 60_000, now)).toBe("Arriving in about 45 minutes");
    expect(arrivingIn(now + 80 * 60_000, now)).toBe("Arriving in about 1 h 20 min");
    expect(arrivingIn(now + 120 * 60_000, now)).toBe("Arriving in about 2 h");
  });

  it("tells the outcome: delivered at a time, arrived at a time", () => {
    expect(story({ status: "completed", completedAt: Date.parse("2026-11-28T20:32:00Z") })).toMatchObject({
      headline: "Delivered at 14:32",
      over: true,
    });
    expect(story({ status: "arrived", arrivedAt: Date.parse("2026-11-28T20:20:00Z") })).toMatchObject({
      headline: "Arrived at 14:20",
      over: false,
    });
  });

  it("says plainly when the visit did not happen, naming who sent the link, never our status words", () => {
    const skipped = story({ status: "skipped" });
    expect(skipped.lead).toBe("We could not make it today: the vehicle had to go on to its other stops.");
    expect(skipped.detail).toContain("Acme Deliveries");
    expect(skipped.over).toBe(true);
    const cancelled = story({ status: "cancelled" });
    expect(cancelled).toMatchObject({ headline: "This visit was cancelled", over: true });
    expect(cancelled.detail).toContain("Acme Deliveries");
    for (const status of ["scheduled", "en_route", "arrived", "completed", "skipped", "cancelled"]) {
      const words = everyWord(story({ status, eta: now + 600_000 }));
      expect(words, status).not.toMatch(/Skipped|en_route|scheduled|completed|arrived\b/);
    }
  });

  it("writes the window and names the zone once: the city and its short name, or UTC", () => {
    expect(customerWindow({ ...job, status: "en_route" }, chicago)).toBe("14:00–16:00");
    expect(customerWindow({ ...job, status: "en_route" }, { ...chicago, hourCycle: "h12" })).toBe("2:00 PM–4:00 PM");
    expect(zoneLabel(chicago, "2026-11-28", now)).toBe("Chicago time (CST)");
    expect(zoneLabel(chicago, "2026-07-01", now)).toBe("Chicago time (CDT)");
    expect(zoneLabel({ timeZone: "America/New_York" }, null, now)).toBe("New York time (EST)");
    expect(zoneLabel({ timeZone: "UTC" }, "2026-11-28", now)).toBe("UTC");
  });
});
