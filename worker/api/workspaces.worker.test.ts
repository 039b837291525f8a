import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { memberships } from "../../db/schema";
import { call } from "../test/factories";

/** Isolation between users and workspaces, seen through the public API only. */
type Json = Record<string, unknown> & { error?: { code: string } };
const json = async (res: Response) => (await res.json()) as Json;
const fromIp = () => ({
  "CF-Connecting-IP": `10.3.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function person() {
  const email = `ws-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await call("/api/signup", {
    method: "POST",
    headers: fromIp(),
    json: { email, password: "long enough 1" },
  });
  return { email, token: (await json(res)).token as string };
}

async function workspace(token: string, name: string) {
  const res = await call("/api/workspaces", { method: "POST", token, json: { name } });
  expect(res.status).toBe(201);
  return (await json(res)).id as string;
}

async function switchTo(token: string, workspaceId: string) {
  return call("/api/workspaces/session", { method: "POST", token, json: { workspaceId } });
}

describe("workspace isolation", () => {
  it("api/me lists exactly the viewer's own workspaces, whoever else has some", async () => {
    const alice = await person();
    const bob = await person();
    const a2 = await workspace(alice.token, "Zulu Freight");
    const a1 = await workspace(alice.token, "Alpha Haulage");
    const b1 = await workspace(bob.token, "Bob's Trucks");
    const aliceMe = await json(await call("/api/me", { token: alice.token }));
    expect(aliceMe.workspaces).toEqual([
      { id: a1, name: "Alpha Haulage" },
      { id: a2, name: "Zulu Freight" },
    ]);
    expect((await json(await call("/api/me", { token: bob.token }))).workspaces).toEqual([
      { id: b1, name: "Bob's Trucks" },
    ]);
  });

  it("switches between one's own workspaces, each token naming one and replacing the last", async () => {
    const alice = await person();
    const first = await workspace(alice.token, "First");
    const second = await workspace(alice.token, "Second");
    const inFirst = (await json(await switchTo(alice.token, first))).token as string;
    expect((await json(await call("/api/me", { token: inFirst }))).workspace).toEqual({ id: first, name: "First" });
    const inSecond = (await json(await switchTo(inFirst, second))).token as string;
    expect((await json(await call("/api/me", { token: inSecond }))).workspace).toEqual({ id: second, name: "Second" });
    // The token a switch replaces is revoked (issue 13).
    expect((await call("/api/me", { token: inFirst })).status).toBe(401);
  });

  it("refuses switching into another's workspace, or one that does not exist, with 403 JSON", async () => {
    const alice = await person();
    const bob = await person();
    const theirs = await workspace(bob.token, "Bob only");
    for (const workspaceId of [theirs, crypto.randomUUID()]) {
      const res = await switchTo(alice.token, workspaceId);
      expect(res.status).toBe(403);
      expect((await json(res)).error?.code).toBe("forbidden");
    }
  });

  it("cannot act on another's workspace with a token for one's own", async () => {
    const alice = await person();
    const bob = await person();
    const aliceToken = (await json(await switchTo(alice.token, await workspace(alice.token, "Alice's"))))
      .token as string;
    const bobsWorkspace = await workspace(bob.token, "Bob's");
    const res = await call("/api/beacons/order", {
      method: "POST",
      token: aliceToken,
      json: { workspaceId: bobsWorkspace, count: 1 },
    });
    expect(res.status).toBe(403);
  });

  it("a member removed from a workspace loses it at once, even with a session that names it", async () => {
    const alice = await person();
    const id = await workspace(alice.token, "Was mine");
    const inside = (await json(await switchTo(alice.token, id))).token as string;
    expect((await call("/api/beacons", { token: inside })).status).toBe(200);

    const { viewer } = (await json(await call("/api/me", { token: inside }))) as { viewer: { id: string } };
    await database(env.DB)
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, id), eq(memberships.userId, viewer.id)));

    const me = await json(await call("/api/me", { token: inside }));
    expect(me.workspace).toBeNull();
    expect(me.workspaces).toEqual([]);
    expect((await call("/api/beacons", { token: inside })).status).toBe(403);
    const order = await call("/api/beacons/order", {
      method: "POST",
      token: inside,
      json: { workspaceId: id, count: 1 },
    });
    expect(order.status).toBe(403);
    expect((await switchTo(inside, id)).status).toBe(403);
  });

  it("requires a session for every workspace call", async () => {
    expect((await call("/api/workspaces", { method: "POST", json: { name: "x" } })).status).toBe(401);
    expect((await call("/api/workspaces/session", { method: "POST", json: { workspaceId: "x" } })).status).toBe(401);
  });
});
