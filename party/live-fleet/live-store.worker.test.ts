import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { userWithWorkspace } from "../../worker/test/factories";
import { roomOf } from "../../worker/test/ingest";
import { LiveStore, type PendingBody } from "./live-store";

// The object's pending entries for D1 (party/live-fleet/live-store.ts): written in place per key,
// dropped after a flush in one statement, and never an entry written again while the flush ran.
const active = (vehicleId: string): PendingBody => ({ kind: "active", vehicleId });
const prune = (vehicleId: string): PendingBody => ({ kind: "prune", vehicleId });

describe("pending entries", () => {
  it("hold one entry per key with the last body written, oldest change first", async () => {
    const { workspaceId } = await userWithWorkspace();
    await runInDurableObject(roomOf(workspaceId), (_room, state) => {
      const store = new LiveStore(state.storage);
      store.write({ devices: [], vehicles: [], pending: [{ key: "a", body: active("v1") }] });
      store.write({ devices: [], vehicles: [], pending: [{ key: "b", body: active("v2") }] });
      store.write({ devices: [], vehicles: [], pending: [{ key: "a", body: prune("v1") }] });
      expect(store.pending().map((p) => [p.key, p.body])).toEqual([
        ["b", active("v2")],
        ["a", prune("v1")],
      ]);
    });
  });

  it("a flush drops what it wrote and keeps an entry written again meanwhile, with its newer body", async () => {
    const { workspaceId } = await userWithWorkspace();
    await runInDurableObject(roomOf(workspaceId), (_room, state) => {
      const store = new LiveStore(state.storage);
      const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);
      store.write({ devices: [], vehicles: [], pending: keys.map((key) => ({ key, body: active(key) })) });
      const flushed = store.pending();
      // While the flush's D1 transaction runs, a report rewrites k7 and adds k300.
      store.write({
        devices: [],
        vehicles: [],
        pending: [
          { key: "k7", body: prune("k7") },
          { key: "k300", body: active("k300") },
        ],
      });
      store.dropFlushed(flushed);
      expect(store.pending().map((p) => [p.key, p.body])).toEqual([
        ["k7", prune("k7")],
        ["k300", active("k300")],
      ]);
      // A restarted store numbers on after what is left.
      const restarted = new LiveStore(state.storage);
      restarted.write({ devices: [], vehicles: [], pending: [{ key: "k1", body: active("k1") }] });
      expect(restarted.pending().map((p) => p.key)).toEqual(["k7", "k300", "k1"]);
    });
  });

  it("set aside only the entries named, the others still pending", async () => {
    const { workspaceId } = await userWithWorkspace();
    await runInDurableObject(roomOf(workspaceId), (_room, state) => {
      const store = new LiveStore(state.storage);
      store.write({
        devices: [],
        vehicles: [],
        pending: ["a", "b", "c"].map((key) => ({ key, body: active(key) })),
      });
      const [, b] = store.pending();
      store.setAside([b!], "D1 refused it");
      expect(store.pending().map((p) => p.key)).toEqual(["a", "c"]);
      expect(store.setAsideEntries()).toMatchObject([{ key: "b", error: "D1 refused it" }]);
    });
  });
});
