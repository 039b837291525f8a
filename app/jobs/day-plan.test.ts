import { describe, expect, it } from "vitest";
import type { RoutePlan } from "../../shared/jobs/route-plan";
import type { SyncedJob } from "../../shared/jobs/jobs";
import { planDistanceText, proposalStops, reasonWords, totalChanges } from "./day-plan";

const totals = (distanceMeters: number, durationSeconds: number, lateStops: number, stops = 6) => ({
  stops,
  distanceMeters,
  durationSeconds,
  lateStops,
});

describe("the proposal's figures", () => {
  it("says which totals the plan makes better or worse, and reads figures that print the same as no change", () => {
    const plan = { before: totals(24_800, 7_200, 2), after: totals(24_830, 6_480, 3) };
    expect(totalChanges(plan, "metric")).toEqual([
      { label: "Stops", before: "6", after: "6", change: "same" },
      { label: "Distance", before: "24.8 km", after: "24.8 km", change: "same" },
      { label: "Hours", before: "2h 0m", after: "1h 48m", change: "better" },
      { label: "Late stops", before: "2", after: "3", change: "worse" },
    ]);
  });

  it("claims no gain from a proposal that leaves stops out: fewer stops is worse, the rest uncoloured", () => {
    // The demo at 5 AM: five stops whose windows passed are late now and left out of the proposal.
    const plan = { before: totals(13_700, 1_380, 5, 12), after: totals(0, 300, 0, 1) };
    expect(totalChanges(plan, "us").map((t) => [t.label, t.before, t.after, t.change])).toEqual([
      ["Stops", "12", "1", "worse"],
      ["Distance", "8.5 mi", "0.0 mi", "same"],
      ["Hours", "23m", "5m", "same"],
      ["Late stops", "5", "0", "same"],
    ]);
  });

  it("writes distances in the workspace's units", () => {
    expect(planDistanceText(16_093.44, "us")).toBe("10.0 mi");
    expect(planDistanceText(16_093.44, "metric")).toBe("16.1 km");
  });

  it("gives every reason the API can send in a dispatcher's words", () => {
    for (const words of Object.values(reasonWords)) expect(words).toMatch(/^[A-Z][a-z]/);
  });
});

describe("the proposal on the map", () => {
  const job = (id: string, latitude: number) => ({ id, title: id, latitude, longitude: -87.6 }) as SyncedJob;
  it("numbers each proposed route in its order, leaves the left-out unnumbered, and skips a job gone from the store", () => {
    const plan = {
      routes: [
        {
          vehicleId: "v1",
          stops: ["b", "gone", "a"].map((jobId) => ({ jobId, arrival: "", start: "", version: 1 })),
          distanceMeters: 1,
          durationSeconds: 1,
        },
      ],
      unassigned: [{ jobId: "c", reason: "no_room_left" }],
      before: totals(0, 0, 0),
      after: totals(0, 0, 0),
    } satisfies RoutePlan;
    const jobs = new Map([job("a", 41.9), job("b", 41.8), job("c", 41.7)].map((j) => [j.id, j]));
    expect(proposalStops(plan, jobs).map((s) => [s.id, s.number, s.routeId])).toEqual([
      ["b", 1, "v1"],
      ["a", 3, "v1"],
      ["c", undefined, undefined],
    ]);
  });
});
