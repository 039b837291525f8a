import { describe, expect, it } from "vitest";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";

/** Issue 34, finding 2: a device id is ingestion's only credential. */
async function order(token: string, workspaceId: string, count = 1) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; vehicleId: string; vehicleName: string }[];
}
const report = (id: string, lat = 40) =>
  call(`/api/ingest/osmand?id=${encodeURIComponent(id)}&lat=${lat}&lon=-100&timestamp=${Date.now() - 1000}`);

describe("device ids", () => {
  it("are given only to roles that edit the fleet: a viewer's beacon list and beacon health carry none", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const member = await memberWithRole(a.workspaceId, "member");

    const listed = async (token: string) => JSON.stringify(await (await call("/api/beacons", { token })).json());
    expect(await listed(viewer.token)).not.toContain(beacon!.id);
    expect(await listed(member.token)).toContain(beacon!.id);
    const healthOf = async (token: string) =>
      (await (await call(`/api/beacons/${beacon!.vehicleId}/health`, { token })).json()) as {
        deviceId: string | null;
        ingestUrl: string;
      };
    expect(await healthOf(viewer.token)).toMatchObject({
      deviceId: null,
      ingestUrl: expect.stringContaining("/api/ingest/osmand"),
    });
    expect((await healthOf(member.token)).deviceId).toBe(beacon!.id);
  });

  it("are all replaced by an owner at once: the answer lists each beacon's new id, old ids are refused, new ones accepted", async () => {
    const a = await userWithWorkspace();
    const ordered = await order(a.token, a.workspaceId, 3);
    for (const b of ordered) expect((await report(b.id)).status).toBe(200);
    const other = await userWithWorkspace();
    const [untouched] = await order(other.token, other.workspaceId);

    for (const role of ["admin", "member", "viewer"]) {
      const someone = await memberWithRole(a.workspaceId, role);
      expect(
        (
          await call("/api/beacons/device-ids/replace", {
            method: "POST",
            token: someone.token,
            json: { confirm: true },
          })
        ).status,
        role,
      ).toBe(403);
    }
    const unconfirmed = await call("/api/beacons/device-ids/replace", { method: "POST", token: a.token, json: {} });
    expect(unconfirmed.status).toBe(400);

    const res = await call("/api/beacons/device-ids/replace", {
      method: "POST",
      token: a.token,
      json: { confirm: true },
    });
    expect(res.status).toBe(200);
    const replaced = (await res.json()) as {
      ingestUrl: string;
      beacons: { vehicleId: string; vehicleName: string; deviceId: string }[];
    };
    expect(replaced.ingestUrl).toMatch(/\/api\/ingest\/osmand$/);
    expect(replaced.beacons.map((b) => b.vehicleId).sort()).toEqual(ordered.map((b) => b.vehicleId).sort());
    for (const b of replaced.beacons) {
      const before = ordered.find((o) => o.vehicleId === b.vehicleId)!;
      expect(b.vehicleName).toBe(before.vehicleName);
      expect(b.deviceId).not.toBe(before.id);
      expect((await report(before.id, 41)).status).toBe(400);
      expect((await report(b.deviceId, 42)).status).toBe(200);
    }
    // another workspace's beacons are not touched
    expect((await report(untouched!.id)).status).toBe(200);
  });
});
