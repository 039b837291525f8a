import { afterEach, describe, expect, it } from "vitest";
import { POKE_MESSAGE, SESSION_ENDED_CLOSE_CODE } from "../shared/sync/room-protocol";
import { pushRequest } from "../shared/sync/sync-requests";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "./test/factories";
import { closeSockets, connect, roundTrip, type Client } from "./test/sockets";

// Every write path reaches the workspace object's one announcer, `changed` (docs/decisions/0027,
// 0058): what an open page sees of it is a poke, or its socket closing. scripts/announcer.test.ts
// checks the other half: no write path bumps the version outside worker/workspace-object.ts.
afterEach(closeSockets);

const pokes = (client: Client) => client.messages.filter((m) => m === POKE_MESSAGE).length;
const trailer = { name: "Trailer", items: [{ label: "Coupling", kind: "pass_fail" }] };

describe("the one announcer", () => {
  it("pokes open pages after a REST write, and after nothing for a read", async () => {
    const a = await userWithWorkspace();
    const page = await connect(a.workspaceId, a.token);
    // The forms' read used to store the default form and bump the version, telling nobody.
    expect((await call("/api/inspection-forms", { token: a.token })).status).toBe(200);
    await roundTrip(page);
    expect(pokes(page)).toBe(0);
    const created = await call("/api/inspection-forms", { method: "POST", token: a.token, json: trailer });
    expect(created.status).toBe(201);
    await expect.poll(() => pokes(page)).toBe(1);
  });

  it("pokes open pages after a push that wrote, and only that workspace's", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicle = await insertVehicle(a.workspaceId);
    const page = await connect(a.workspaceId, a.token);
    const elsewhere = await connect(b.workspaceId, b.token);
    const args = { id: vehicle, name: "Announced", vin: null, year: null, make: null, model: null };
    const res = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: pushRequest([{ name: "updateVehicle", args }]),
    });
    expect(res.status).toBe(200);
    await expect.poll(() => pokes(page)).toBe(1);
    await roundTrip(elsewhere);
    expect(pokes(elsewhere)).toBe(0);
  });

  it("closes a removed member's sockets at once and leaves everyone else's open", async () => {
    const a = await userWithWorkspace();
    const colleague = await memberWithRole(a.workspaceId, "member");
    const theirs = await connect(a.workspaceId, colleague.token);
    const mine = await connect(a.workspaceId, a.token);
    const path = `/api/workspaces/${a.workspaceId}/members/${colleague.userId}`;
    expect((await call(path, { method: "DELETE", token: a.token })).status).toBe(200);
    await expect.poll(() => theirs.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    await roundTrip(mine);
    expect(mine.closedWith).toBeNull();
  });
});
