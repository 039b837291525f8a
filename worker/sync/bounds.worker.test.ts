import { describe, expect, it } from "vitest";
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { LIMITS } from "../auth/rate-limit";
import { call, userWithWorkspace } from "../test/factories";
import { MAX_PUSH_MUTATIONS } from "./push-bounds";

/** Issue 23: what one signed-in caller can make the shared database do is bounded. */
type Json = { error?: { code: string }; cookie?: unknown; patch?: { op: string }[] };

const pull = (token: string, clientGroupID: string, cookie: unknown = null) =>
  call("/api/sync/pull", {
    method: "POST",
    token,
    json: { pullVersion: PROTOCOL_VERSION, clientGroupID, cookie, profileID: "p", schemaVersion: SCHEMA_VERSION },
  });

describe("full reads per user and workspace per minute", () => {
  it("serves the budget of first pulls, then 429 before reading, while incremental pulls go on", async () => {
    const a = await userWithWorkspace();
    const group = crypto.randomUUID();
    const first = await pull(a.token, group);
    expect(first.status).toBe(200);
    const { cookie } = (await first.json()) as Json;
    for (let i = 1; i < LIMITS.fullReads.max; i++) expect((await pull(a.token, crypto.randomUUID())).status).toBe(200);
    const over = await pull(a.token, crypto.randomUUID());
    expect(over.status).toBe(429);
    expect(((await over.json()) as Json).error?.code).toBe("rate_limited");
    // A foreign cookie (a reset) is a full read too: refused the same way.
    expect((await pull(a.token, group, "not ours")).status).toBe(429);
    const next = await pull(a.token, group, cookie);
    expect(next.status).toBe(200);
    expect(((await next.json()) as Json).patch?.[0]?.op).not.toBe("clear");
    // Another user of the same server is not affected.
    const b = await userWithWorkspace();
    expect((await pull(b.token, crypto.randomUUID())).status).toBe(200);
  });
});

describe("push bounds", () => {
  it("refuses a push of more mutations than any browser sends with 413 JSON", async () => {
    const a = await userWithWorkspace();
    const clientGroupID = crypto.randomUUID();
    const mutations = Array.from({ length: MAX_PUSH_MUTATIONS + 1 }, (_, i) => ({
      clientID: `c${i}`,
      id: 1,
      name: "updateVehicle",
      args: {},
      timestamp: 1,
    }));
    const res = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: { pushVersion: PROTOCOL_VERSION, clientGroupID, mutations, profileID: "p", schemaVersion: SCHEMA_VERSION },
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error?.code).toBe("payload_too_large");
  });
});

describe("per-account daily bounds", () => {
  it("creates at most the daily number of workspaces per account, then 429", async () => {
    const a = await userWithWorkspace();
    for (let i = 0; i < LIMITS.workspaceCreations.max; i++) {
      expect((await call("/api/workspaces", { method: "POST", token: a.token, json: { name: `W ${i}` } })).status).toBe(
        201,
      );
    }
    const over = await call("/api/workspaces", { method: "POST", token: a.token, json: { name: "One too many" } });
    expect(over.status).toBe(429);
    const b = await userWithWorkspace();
    expect((await call("/api/workspaces", { method: "POST", token: b.token, json: { name: "Fine" } })).status).toBe(
      201,
    );
  }, 60_000);

  it("takes at most the daily number of beacon orders per account, then 429", async () => {
    const a = await userWithWorkspace();
    const order = () =>
      call("/api/beacons/order", { method: "POST", token: a.token, json: { workspaceId: a.workspaceId, count: 1 } });
    for (let i = 0; i < LIMITS.beaconOrders.max; i++) expect((await order()).status).toBe(201);
    expect((await order()).status).toBe(429);
  }, 60_000);
});
