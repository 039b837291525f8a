import { describe, expect, it } from "vitest";
import { ClientStore } from "./client-store";

describe("client store", () => {
  it("starts loading, and is hydrated by the first change list", () => {
    const store = new ClientStore();
    expect([store.loading, store.hydrated]).toEqual([true, false]);
    store.apply([]);
    expect([store.loading, store.hydrated]).toEqual([false, true]);
  });

  it("is not taken as pulled until the first sync ends, and then tells its subscribers once", () => {
    const store = new ClientStore();
    let told = 0;
    store.subscribe(() => told++);
    store.apply([]);
    expect(store.pulled).toBe(false); // hydrated from an empty local store: not yet known empty
    store.markPulled();
    store.markPulled();
    expect(store.pulled).toBe(true);
    expect(told).toBe(2); // the first diff, then the first sync's end; a second end says nothing
  });

  it("adds, changes and deletes objects and keeps the graph of ids per type", () => {
    const store = new ClientStore();
    store.apply([
      { op: "add", key: "vehicle/v1", newValue: { n: "A", s: "ACTIVE", b: "PENDING" } },
      { op: "add", key: "telemetry/v1", newValue: { s: "moving", st: 1, v: 3, la: 41.5, lo: -87.5, t: 2 } },
      { op: "add", key: "event/v1/e1", newValue: { k: "STOP", a: 5 } },
      { op: "add", key: "something/else", newValue: 1 },
    ]);
    expect(store.ids("vehicle")).toEqual(["v1"]);
    expect(store.ids("event")).toEqual(["v1/e1"]);
    // Values are read decoded from the compact stored form: ids from the key, absent fields null.
    expect(store.get("telemetry", "v1")).toMatchObject({ id: "v1", vehicleId: "v1", speed: 3, fuel: null });
    store.apply([{ op: "change", key: "vehicle/v1", newValue: { n: "B", s: "ACTIVE", b: "ACTIVE" } }]);
    expect(store.get("vehicle", "v1")).toMatchObject({ id: "v1", name: "B", make: null, beaconStatus: "ACTIVE" });
    store.apply([{ op: "del", key: "vehicle/v1" }]);
    expect(store.get("vehicle", "v1")).toBeUndefined();
    expect(store.ids("vehicle")).toEqual([]);
    expect(store.list("event", "v1/")).toEqual([
      { id: "e1", vehicleId: "v1", type: "STOP", startTime: 5, endTime: null, location: null, distance: null, averageSpeed: null },
    ]);
  });

  it("tells subscribers what changed and rebuilds derived lists only when their type changed", () => {
    const store = new ClientStore();
    const seen: string[][] = [];
    const stop = store.subscribe((changes) => seen.push(changes.map((c) => c.key)));
    store.apply([{ op: "add", key: "vehicle/v1", newValue: { n: "v1", s: "ACTIVE", b: "ACTIVE" } }]);
    const first = store.memo("vehicles", "vehicle", () => store.list("vehicle"));
    store.apply([{ op: "add", key: "telemetry/v1", newValue: { s: "off", st: 1, v: 0, la: 1, lo: 2, t: 1 } }]);
    expect(store.memo("vehicles", "vehicle", () => store.list("vehicle"))).toBe(first);
    store.apply([{ op: "change", key: "vehicle/v1", newValue: { n: "x", s: "ACTIVE", b: "ACTIVE" } }]);
    expect(store.memo("vehicles", "vehicle", () => store.list("vehicle"))).not.toBe(first);
    stop();
    store.apply([{ op: "del", key: "vehicle/v1" }]);
    expect(seen).toEqual([["vehicle/v1"], ["telemetry/v1"], ["vehicle/v1"]]);
  });
});
