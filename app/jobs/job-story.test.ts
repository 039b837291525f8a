import { describe, expect, it } from "vitest";
import { jobStory, type StoryJob } from "./job-story";
import { parseJobStoryExtras } from "./job-story-extras";
import { stopStatusWords } from "./status";

const MIN = 60_000;
const T = Date.UTC(2026, 10, 28, 14, 0);
const job = (over: Partial<StoryJob>): StoryJob => ({
  status: "scheduled",
  late: false,
  eta: null,
  enRouteAt: null,
  arrivedAt: null,
  departedAt: null,
  completedAt: null,
  ...over,
});

describe("a stop's story on the dispatch page", () => {
  it("gives the ETA and the minutes to it only while the stop is ahead", () => {
    const onTheWay = jobStory(job({ status: "en_route", eta: T + 8 * MIN }), null, T);
    expect([onTheWay.eta, onTheWay.etaInMinutes]).toEqual([T + 8 * MIN, 8]);
    const there = jobStory(job({ status: "arrived", eta: T + 8 * MIN, arrivedAt: T }), null, T);
    expect([there.eta, there.etaInMinutes]).toEqual([null, null]);
  });

  it("counts time on site up to now while the vehicle is there, and to its departure once it left", () => {
    const there = jobStory(job({ status: "arrived", arrivedAt: T }), null, T + 12 * MIN);
    expect([there.onSiteMs, there.onSiteNow]).toEqual([12 * MIN, true]);
    const left = jobStory(
      job({ status: "completed", arrivedAt: T, departedAt: T + 7 * MIN, completedAt: T + 7 * MIN }),
      null,
      T + 60 * MIN,
    );
    expect([left.onSiteMs, left.onSiteNow]).toEqual([7 * MIN, false]);
    // Marked done by the driver while still there: the stay ends when it was done.
    const done = jobStory(job({ status: "completed", arrivedAt: T, completedAt: T + 4 * MIN }), null, T + 60 * MIN);
    expect(done.onSiteMs).toBe(4 * MIN);
    expect(jobStory(job({ status: "en_route" }), null, T).onSiteMs).toBeNull();
  });

  it("sums every visit the server lists, so a vehicle that came back is not counted for the time between", () => {
    const extras = parseJobStoryExtras({
      visits: [
        { arrivedAt: new Date(T).toISOString(), departedAt: new Date(T + 5 * MIN).toISOString() },
        { arrivedAt: new Date(T + 30 * MIN).toISOString() },
      ],
      lateMinutes: 12,
    });
    const story = jobStory(job({ status: "arrived", arrivedAt: T, late: true }), extras, T + 33 * MIN);
    expect(story.visits).toHaveLength(2);
    expect(story.onSiteMs).toBe(8 * MIN);
    expect(story.onSiteNow).toBe(true);
    expect(story.lateMinutes).toBe(12);
  });

  it("says an arrived stop the vehicle has left was left, not that it is still arrived", () => {
    expect(stopStatusWords({ status: "arrived", departedAt: null })).toBe("Arrived");
    expect(stopStatusWords({ status: "arrived", departedAt: T })).toBe("Left, not marked done");
    expect(stopStatusWords({ status: "completed", departedAt: T })).toBe("Completed");
  });
});

describe("what the server adds to the story (GET /api/jobs/{id})", () => {
  it("is nothing from a server that sends none of it, or from an answer that is not a job", () => {
    expect(parseJobStoryExtras({ id: "j1", title: "Deliver", status: "arrived" })).toEqual({});
    expect(parseJobStoryExtras(null)).toEqual({});
    expect(parseJobStoryExtras("Not found")).toEqual({});
  });

  it("keeps the fields of the contract's shape and drops the one that is not", () => {
    const extras = parseJobStoryExtras({
      visits: "soon",
      lateMinutes: 4.6,
      messages: [{ channel: "email", kind: "en_route", at: "2026-11-28T14:00:00.000Z", status: "sent" }],
    });
    expect(extras).toEqual({
      lateMinutes: 5,
      messages: [{ channel: "email", kind: "en_route", at: T, status: "sent" }],
    });
    expect(parseJobStoryExtras({ messages: [{ channel: "pigeon", kind: "en_route", at: T, status: "sent" }] })).toEqual(
      {},
    );
  });
});
