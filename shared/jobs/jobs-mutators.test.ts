import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import { decodeJob, jobKey, JOB_PREFIX, type JobWire } from "./jobs";
import { jobMutators } from "./jobs-mutators";
import { encodePlace, placeKey } from "../places/places";
import { placeTable } from "../places/place-fields";

/** Replicache's transaction over a Map, with the prefix scan the mutators use (Replicache itself is not run here). */
function store(entries: Record<string, unknown> = {}) {
  const { map, tx } = memoryTransaction(entries);
  const job = (id: string) => decodeJob(id, map.get(jobKey(id)) as JobWire);
  return { map, tx, job };
}

const date = "2026-11-30";
const location = { latitude: 41.88, longitude: -87.63 };
const van = "3f2b6c1e-8d4a-4b7e-9c1a-2d3e4f5a6b7c";

describe("jobs in the browser's store", () => {
  it("plans a job at the end of its vehicle's day, unnumbered until the server's copy comes, and at a place's centre", async () => {
    const place = "9b1c2d3e-4f5a-4b6c-8d7e-1f2a3b4c5d6e";
    const { tx, job, map } = store({
      [placeKey(place)]: encodePlace({
        ...placeTable.given({ name: "Depot" }),
        geometry: { type: "Circle", center: [-87.6, 41.9], radius: 80 },
      }),
    });
    await jobMutators.createJob(tx, { id: "a", title: "First", date, vehicleId: van, location });
    await jobMutators.createJob(tx, { id: "b", title: "Second", date, vehicleId: van, placeId: place });
    await jobMutators.createJob(tx, { id: "a", title: "Replayed", date, location });
    expect(job("a")).toMatchObject({ number: 0, title: "First", sequence: 0, vehicleId: van, status: "scheduled" });
    expect(job("b")).toMatchObject({ sequence: 1, placeId: place, latitude: 41.9, longitude: -87.6 });
    expect([...map.keys()].filter((k) => k.startsWith(JOB_PREFIX))).toHaveLength(2);
  });

  it("reorders a day, marks arrival and completion by the status rule, and cancels only what may be cancelled", async () => {
    const { tx, job } = store();
    for (const id of ["a", "b", "c"]) await jobMutators.createJob(tx, { id, title: id, date, location });
    await jobMutators.reorderJobs(tx, { vehicleId: van, date, jobIds: ["c", "a"] });
    expect([job("c").sequence, job("a").sequence, job("c").vehicleId, job("b").vehicleId]).toEqual([0, 1, van, null]);

    await jobMutators.markJobArrived(tx, { id: "a", at: 1_700_000_000_000 });
    await jobMutators.completeJob(tx, { id: "a", at: 1_700_000_600_000, recipientName: "Ann", completedByUserId: "u" });
    expect(job("a")).toMatchObject({
      status: "completed",
      arrivedAt: 1_700_000_000_000,
      completedAt: 1_700_000_600_000,
      recipientName: "Ann",
      completedByUserId: "u",
    });
    await jobMutators.cancelJob(tx, { id: "a" });
    expect(job("a").status).toBe("completed");
    await jobMutators.cancelJob(tx, { id: "b" });
    await jobMutators.markJobArrived(tx, { id: "b", at: 1 });
    expect(job("b")).toMatchObject({ status: "cancelled", arrivedAt: null });
    await jobMutators.updateJob(tx, { id: "b", status: "scheduled", title: "Back on", windowEnd: "17:00" });
    expect(job("b")).toMatchObject({ status: "scheduled", title: "Back on", windowEnd: "17:00" });
    await jobMutators.deleteJob(tx, { id: "c" });
    expect(() => job("c")).toThrow();
  });

  it("keeps a finished job's place: a reorder that would move it changes nothing, as the server refuses it", async () => {
    const { tx, job } = store();
    for (const id of ["a", "b"]) await jobMutators.createJob(tx, { id, title: id, date, vehicleId: van, location });
    await jobMutators.completeJob(tx, { id: "a", at: 1_700_000_600_000 });
    await jobMutators.reorderJobs(tx, { vehicleId: van, date, jobIds: ["b", "a"] });
    expect([job("a").sequence, job("b").sequence]).toEqual([0, 1]);
  });
});
