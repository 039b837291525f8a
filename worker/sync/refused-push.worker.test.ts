import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POKE_MESSAGE } from "../../shared/sync/room-protocol";
import { pullRequest, pushRequest } from "../../shared/sync/sync-requests";
import { database } from "../../db/client";
import { places, workspaces } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { closeSockets, connect, roundTrip } from "../test/sockets";
import { announceWrites } from "../workspace-object";
import type { SyncCookie } from "./cookie";

/**
 * Issue 34, finding 8 (docs/decisions/0035): a push made only of refused or unknown mutations (a
 * viewer's, yesterday's tab of a demoted member, a name the server does not know) bumps nothing.
 * The workspace's version stays, nobody is poked, and still the pusher's next pull tells its
 * client those mutations are processed, so Replicache drops them and the optimistic edit goes back.
 */
afterEach(closeSockets);
const db = database(env.DB);
const circle = { type: "Circle", center: [-87.63, 41.88], radius: 150 };

type PullBody = {
  cookie: SyncCookie;
  lastMutationIDChanges: Record<string, number>;
  patch: { op: string; key?: string }[];
};

async function httpPull(token: string, clientGroupID: string, cookie: SyncCookie | null = null) {
  const res = await call("/api/sync/pull", { method: "POST", token, json: pullRequest({ clientGroupID, cookie }) });
  expect(res.status).toBe(200);
  return (await res.json()) as PullBody;
}

const versionOf = async (workspaceId: string) =>
  (await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0]!.version;

describe("a push of only refused or unknown mutations", () => {
  it("leaves the workspace version alone and pokes nobody, yet the pusher's next pull acknowledges all 50", async () => {
    const a = await userWithWorkspace();
    await insertVehicle(a.workspaceId, { name: "Truck" });
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const viewerGroup = crypto.randomUUID();
    const ownerGroup = crypto.randomUUID();
    const viewerFirst = await httpPull(viewer.token, viewerGroup);
    const ownerFirst = await httpPull(a.token, ownerGroup);
    const owner = await connect(a.workspaceId, a.token);
    await roundTrip(owner);
    const before = await versionOf(a.workspaceId);

    const clientID = crypto.randomUUID();
    const mutations = Array.from({ length: 50 }, (_, i) =>
      i % 2
        ? { name: "createPlace", args: { id: crypto.randomUUID(), name: "X", geometry: circle } }
        : { name: "noSuchMutation", args: {} },
    );
    const pushed = await call("/api/sync/push", {
      method: "POST",
      token: viewer.token,
      json: pushRequest(mutations, { clientGroupID: viewerGroup, clientID }),
    });
    expect(pushed.status).toBe(200);
    expect(((await pushed.json()) as { refused: unknown[] }).refused).toHaveLength(25);

    // Nothing anyone sees changed: no version, no place, no poke on the owner's open socket.
    expect(await versionOf(a.workspaceId)).toBe(before);
    expect(await db.select().from(places).where(eq(places.workspaceId, a.workspaceId))).toEqual([]);
    await roundTrip(owner);
    expect(owner.messages).not.toContain(POKE_MESSAGE);

    // The pusher's client learns its 50 mutations are processed (Replicache drops them), at the same
    // version, with a cookie ordered above its last, and an empty patch (the refused place goes back).
    const viewerNext = await httpPull(viewer.token, viewerGroup, viewerFirst.cookie);
    expect(viewerNext.lastMutationIDChanges).toEqual({ [clientID]: 50 });
    expect(viewerNext.patch).toEqual([]);
    expect(viewerNext.cookie.version).toBe(viewerFirst.cookie.version);
    expect(viewerNext.cookie.order).toBe(viewerFirst.cookie.order + 1);

    // Once known, nothing more: the same cookie comes back and no ids are repeated.
    const viewerThen = await httpPull(viewer.token, viewerGroup, viewerNext.cookie);
    expect(viewerThen).toEqual({ cookie: viewerNext.cookie, lastMutationIDChanges: {}, patch: [] });

    // Another client's pull carries nothing of the viewer's, and nothing to apply.
    const ownerNext = await httpPull(a.token, ownerGroup, ownerFirst.cookie);
    expect(ownerNext.lastMutationIDChanges).toEqual({});
    expect(ownerNext.patch).toEqual([]);
  });

  it("keeps every later cookie ordered above the last when a write follows", async () => {
    const a = await userWithWorkspace();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const group = crypto.randomUUID();
    const first = await httpPull(viewer.token, group);
    const clientID = crypto.randomUUID();
    await call("/api/sync/push", {
      method: "POST",
      token: viewer.token,
      json: pushRequest([{ name: "noSuchMutation", args: {} }], { clientGroupID: group, clientID }),
    });
    const acked = await httpPull(viewer.token, group, first.cookie);
    expect(acked.lastMutationIDChanges).toEqual({ [clientID]: 1 });

    const vehicleId = await insertVehicle(a.workspaceId, { name: "Van" });
    await announceWrites({ env }, [a.workspaceId]);
    const afterWrite = await httpPull(viewer.token, group, acked.cookie);
    expect(afterWrite.cookie.order).toBeGreaterThan(acked.cookie.order);
    expect(afterWrite.patch.map((op) => op.key)).toContain(`vehicle/${vehicleId}`);
    expect(afterWrite.lastMutationIDChanges).toEqual({});

    // A client whose cookie predates the refused push (another tab of the group, an old cookie) still gets its id.
    const fromOld = await httpPull(viewer.token, group, first.cookie);
    expect(fromOld.lastMutationIDChanges).toEqual({ [clientID]: 1 });
    expect(fromOld.cookie.order).toBeGreaterThanOrEqual(afterWrite.cookie.order);
  });
});
