import { describe, expect, it } from "vitest";
import { issueTable } from "../../shared/maintenance/issue-fields";
import { encodeIssue, issueKey } from "../../shared/maintenance/issues";
import { encodeJob, jobFieldsOf, jobKey } from "../../shared/jobs/jobs";
import { ClientStore, eventGroup, groupOfKey, typeOfKey } from "./client-store";

describe("client store", () => {
  it("finds an issue by its id though its key holds the id packed (docs/decisions/0034)", () => {
    const store = new ClientStore();
    const id = crypto.randomUUID();
    const vehicleId = crypto.randomUUID();
    const wire = encodeIssue({
      number: 3,
      vehicleId,
      ...issueTable.given({ title: "Oil leak", priority: "high" }),
      description: null,
      status: "open",
      reportedByUserId: null,
      assigneeUserId: null,
      photoIds: [],
      sourceInspectionId: null,
      sourceAlertId: null,
      createdAt: 1_795_000_000_000,
      updatedAt: 1_795_000_000_000,
    });
    store.apply([{ op: "add", key: issueKey(id), newValue: wire }]);
    expect(issueKey(id)).not.toContain(id);
    expect(store.ids("issue")).toEqual([id]);
    expect(store.get("issue", id)).toMatchObject({ id, vehicleId, number: 3, title: "Oil leak", priority: "high" });
    expect(store.list("issue")).toMatchObject([{ id }]);
    store.apply([{ op: "del", key: issueKey(id) }]);
    expect(store.get("issue", id)).toBeUndefined();
  });

  it("finds a job by its id, decoded with its vehicle, though its key and value hold the ids packed (issue 43)", () => {
    const store = new ClientStore();
    const id = crypto.randomUUID();
    const vehicleId = crypto.randomUUID();
    const fields = jobFieldsOf(
      { title: "Deliver to Acme", date: "2026-11-28", vehicleId, windowStart: "09:00", windowEnd: "11:00" },
      { latitude: 41.88, longitude: -87.63, address: "1 Main St" },
      { number: 7, sequence: 2 },
    );
    store.apply([{ op: "add", key: jobKey(id), newValue: encodeJob(fields) }]);
    expect(jobKey(id)).not.toContain(id);
    expect(store.ids("job")).toEqual([id]);
    expect(store.get("job", id)).toMatchObject({ id, vehicleId, number: 7, sequence: 2, windowStart: "09:00" });
    store.apply([{ op: "del", key: jobKey(id) }]);
    expect(store.list("job")).toEqual([]);
  });

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
      {
        id: "e1",
        vehicleId: "v1",
        type: "STOP",
        startTime: 5,
        endTime: null,
        location: null,
        distance: null,
        averageSpeed: null,
        fuelFrom: null,
        fuelTo: null,
      },
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

describe("client store: keys", () => {
  it("reads a key's type and id with shared/'s prefixes, and ignores a prefix this build does not know", () => {
    expect(typeOfKey("vehicle/v1")).toEqual({ type: "vehicle", id: "v1" });
    expect(typeOfKey("telemetry/v1")).toEqual({ type: "telemetry", id: "v1" });
    expect(typeOfKey("event/v1/e9")).toEqual({ type: "event", id: "v1/e9" });
    expect(typeOfKey("inspection/i1")).toEqual({ type: "inspection", id: "i1" });
    expect(typeOfKey("inspection-form/f1")).toEqual({ type: "inspection-form", id: "f1" });
    expect(typeOfKey("work-order/w1")).toBeNull();
    expect(typeOfKey("vehicles/v1")).toBeNull();
    const store = new ClientStore();
    store.apply([{ op: "add", key: "driver/d1", newValue: { n: "Ana" } }]);
    expect([store.count("vehicle"), store.count("telemetry"), store.count("event")]).toEqual([0, 0, 0]);
  });

  it("hears a vehicle's events as one group, and any other key as itself", () => {
    expect(groupOfKey("event/v1/e9")).toBe(eventGroup("v1"));
    expect(groupOfKey("telemetry/v1")).toBe("telemetry/v1");
  });
});

describe("client store: work proportional to what changed", () => {
  const vehicle = (id: string, name: string) => ({
    op: "add" as const,
    key: `vehicle/${id}`,
    newValue: { n: name, s: "ACTIVE", b: "ACTIVE" },
  }); // the stored (wire) form
  const fleet = (n: number) => {
    const store = new ClientStore();
    store.apply(Array.from({ length: n }, (_, i) => vehicle(`v${i}`, `Vehicle ${i + 1}`)));
    return store;
  };
  const names = (store: ClientStore) => store.vehiclesByName<{ id: string; name: string }>().map((v) => v.name);

  it("sorts a first sync once, by name with numbers as numbers", () => {
    const store = fleet(120);
    expect(store.lastSortWork).toEqual({ moved: 120, fullSort: true });
    expect(names(store).slice(0, 3)).toEqual(["Vehicle 1", "Vehicle 2", "Vehicle 3"]);
    expect(names(store).at(-1)).toBe("Vehicle 120");
  });

  it("moves a renamed, added or deleted vehicle into place without sorting the fleet again", () => {
    const store = fleet(1000);
    const before = store.vehiclesByName();
    store.apply([{ op: "change", key: "vehicle/v0", newValue: { n: "Zulu", s: "ACTIVE", b: "ACTIVE" } }]);
    expect(store.lastSortWork).toEqual({ moved: 1, fullSort: false });
    const after = names(store);
    expect(after.at(-1)).toBe("Zulu");
    expect(after[0]).toBe("Vehicle 2");
    expect(store.vehiclesByName()).not.toBe(before); // a new array for React
    expect(before[0]!.name).toBe("Vehicle 1"); // and the old one untouched
    store.apply([vehicle("n1", "Vehicle 10"), { op: "del", key: "vehicle/v5" }]);
    expect(store.lastSortWork).toEqual({ moved: 2, fullSort: false });
    const list = names(store);
    expect(list).toHaveLength(1000);
    expect(list.filter((n) => n === "Vehicle 10")).toHaveLength(2);
    expect(list).not.toContain("Vehicle 6");
    // Still exactly what a full sort gives.
    expect(list).toEqual([...list].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })));
  });

  it("keeps one entry when a vehicle changes twice in one change list", () => {
    const store = fleet(100);
    store.apply([
      { op: "change", key: "vehicle/v1", newValue: { n: "Alpha", s: "ACTIVE", b: "ACTIVE" } },
      { op: "change", key: "vehicle/v1", newValue: { n: "Omega", s: "ACTIVE", b: "ACTIVE" } },
    ]);
    const list = names(store);
    expect(list).toHaveLength(100);
    expect(list).toContain("Omega");
    expect(list).not.toContain("Alpha");
  });

  it("tells a subscriber only the changes of the type, key or vehicle's events it asked for", () => {
    const store = fleet(3);
    const heard = { telemetry: [] as string[][], v1: [] as string[][], events: [] as string[][], status: 0 };
    store.subscribeType("telemetry", (c) => heard.telemetry.push(c.map((x) => x.key)));
    store.subscribeGroup("vehicle/v1", (c) => heard.v1.push(c.map((x) => x.key)));
    store.subscribeGroup("event/v2", (c) => heard.events.push(c.map((x) => x.key)));
    store.subscribeStatus(() => heard.status++);
    store.apply([
      { op: "add", key: "telemetry/v0", newValue: { s: "off", st: 1, v: 0, la: 1, lo: 2, t: 1 } },
      { op: "add", key: "event/v2/e1", newValue: { k: "STOP", a: 1 } },
      { op: "add", key: "event/v1/e2", newValue: { k: "STOP", a: 1 } },
      { op: "change", key: "vehicle/v2", newValue: { n: "B", s: "ACTIVE", b: "ACTIVE" } },
    ]);
    store.apply([{ op: "change", key: "vehicle/v1", newValue: { n: "A", s: "ACTIVE", b: "ACTIVE" } }]);
    expect(heard.telemetry).toEqual([["telemetry/v0"]]);
    expect(heard.v1).toEqual([["vehicle/v1"]]);
    expect(heard.events).toEqual([["event/v2/e1"]]);
    expect(heard.status).toBe(0); // hydrated by the first change list, before these subscribers
    store.markPulled();
    expect(heard.status).toBe(1);
  });

  it("indexes events by vehicle: newest first, the same array until that vehicle's events change", () => {
    const store = new ClientStore();
    store.apply([
      { op: "add", key: "event/v1/a", newValue: { k: "STOP", a: 1 } },
      { op: "add", key: "event/v1/b", newValue: { k: "STOP", a: 3 } },
      { op: "add", key: "event/v2/c", newValue: { k: "STOP", a: 2 } },
    ]);
    const v1 = store.eventsOf<{ id: string; startTime: number }>("v1");
    expect(v1.map((e) => e.id)).toEqual(["b", "a"]);
    store.apply([{ op: "add", key: "event/v2/d", newValue: { k: "STOP", a: 5 } }]);
    expect(store.eventsOf("v1")).toBe(v1);
    store.apply([{ op: "del", key: "event/v1/b" }]);
    expect(store.eventsOf<{ id: string; startTime: number }>("v1").map((e) => e.id)).toEqual(["a"]);
    expect(store.eventsOf("v3")).toEqual([]);
  });
});
