import { describe, expect, it } from "vitest";
import { countByFleetStatus, openIssuesByPriority } from "./counts";

describe("the overview's counts", () => {
  it("counts each vehicle once, by the map's colour split into moving and idle", () => {
    const vehicles = ["a", "b", "c", "d", "e", "f"].map((id) => ({
      id,
      beaconStatus: id === "f" ? "INACTIVE" : "ACTIVE",
    }));
    const status: Record<string, string> = { a: "moving", b: "towing", c: "idle", d: "off", f: "moving" };
    // e has an active beacon and no report in the store: green on the map, so moving.
    expect(countByFleetStatus(vehicles, (id) => status[id])).toEqual({ moving: 3, idle: 1, parked: 1, silent: 1 });
  });

  it("counts open and in-progress issues by priority, as the Issues list's default filter shows them", () => {
    const issues = [
      { priority: "critical" as const, status: "open" as const },
      { priority: "high" as const, status: "in_progress" as const },
      { priority: "high" as const, status: "resolved" as const },
      { priority: "low" as const, status: "closed" as const },
      { priority: "low" as const, status: "open" as const },
    ];
    expect(openIssuesByPriority(issues)).toEqual({ low: 1, medium: 0, high: 1, critical: 1 });
  });
});
