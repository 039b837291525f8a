import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_ENDED_CLOSE_CODE, type SocketPullAnswer } from "../../shared/sync/room-protocol";
import { pullRequest } from "../../shared/sync/sync-requests";
import { database } from "../../db/client";
import { sessions, workspaces } from "../../db/schema";
import { d1Meter } from "../../db/d1-meter";
import { sha256Hex } from "../lib/crypto";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { closeSockets, connect, roundTrip, type Client } from "../test/sockets";
import { announceWrites } from "../workspace-object";
import type { SyncCookie } from "./cookie";
import { runObjectTasks } from "../test/ingest";
import { SOCKET_RECHECK_MS } from "../../party/room/sockets";

/**
 * Incremental pulls over the room's socket (shared/sync/room-protocol.ts, docs/decisions/0013): the same
 * answers as POST /api/sync/pull, for the socket's own session and workspace only, at no D1 cost of
 * their own, and never for a session that has ended.
 */
afterEach(closeSockets);

type PullBody = {
  cookie: SyncCookie;
  lastMutationIDChanges: Record<string, number>;
  patch: { op: string; key?: string }[];
};

async function httpPull(token: string, body: unknown) {
  const res = await call("/api/sync/pull", { method: "POST", token, json: body });
  return { status: res.status, body: (await res.json()) as unknown };
}

let nextId = 1;
/** Sends a pull over the socket and waits for the answer of its id. */
async function socketPull(client: Client, body: unknown): Promise<SocketPullAnswer> {
  const id = nextId++;
  client.socket.send(JSON.stringify({ type: "pull", id, body }));
  const answer = () =>
    client.messages
      .map((m) => (m.startsWith("{") ? (JSON.parse(m) as SocketPullAnswer) : null))
      .find((m) => m?.type === "pull" && m.id === id);
  await expect.poll(answer).toBeTruthy();
  return answer()!;
}

/** A workspace with a vehicle, a browser's client group that has pulled once over HTTP, and its socket. */
async function pulledOnce() {
  const a = await userWithWorkspace();
  const vehicleId = await insertVehicle(a.workspaceId, { name: "Truck" });
  const clientGroupID = crypto.randomUUID();
  const first = await httpPull(a.token, pullRequest({ clientGroupID }));
  const cookie = (first.body as PullBody).cookie;
  const client = await connect(a.workspaceId, a.token);
  return { ...a, vehicleId, clientGroupID, cookie, client };
}

/** A write in the workspace, announced as every writer does. */
async function addVehicle(workspaceId: string, name: string) {
  const id = await insertVehicle(workspaceId, { name });
  await announceWrites({ env }, [workspaceId]);
  return id;
}

describe("pulls over the room's socket", () => {
  it("are offered on every new socket, and answer what the HTTP pull answers for the same request", async () => {
    const { token, workspaceId, clientGroupID, cookie, client } = await pulledOnce();
    await roundTrip(client);
    expect(client.messages).toContain(JSON.stringify({ type: "pulls-ready" }));
    const other = await addVehicle(workspaceId, "Van");
    const request = pullRequest({ clientGroupID, cookie });
    const overSocket = await socketPull(client, request);
    const overHttp = await httpPull(token, request);
    expect(overSocket).toMatchObject({ type: "pull", status: 200 });
    expect("body" in overSocket && overSocket.body).toEqual(overHttp.body);
    expect((overHttp.body as PullBody).patch.map((op) => op.key)).toContain(`vehicle/${other}`);
  });

  it("send a first pull (no cookie) and a reset back to HTTP", async () => {
    const { workspaceId, clientGroupID, cookie, client } = await pulledOnce();
    expect(await socketPull(client, pullRequest({ clientGroupID }))).toMatchObject({ viaHttp: true });
    // A restore to an earlier point: the client's cookie is ahead of the workspace, a full reset.
    await database(env.DB).update(workspaces).set({ version: 0 }).where(eq(workspaces.id, workspaceId));
    expect(await socketPull(client, pullRequest({ clientGroupID, cookie }))).toMatchObject({ viaHttp: true });
  });

  it("answer bad input, another protocol and an old schema as the HTTP route does", async () => {
    const { token, clientGroupID, cookie, client } = await pulledOnce();
    const cases = [
      { ...pullRequest({ clientGroupID, cookie }), clientGroupID: "" },
      { ...pullRequest({ clientGroupID, cookie }), pullVersion: 0 },
      { ...pullRequest({ clientGroupID, cookie }), schemaVersion: "1" },
    ];
    for (const body of cases) {
      const overSocket = await socketPull(client, body);
      const overHttp = await httpPull(token, body);
      expect(overSocket).toMatchObject({ status: overHttp.status, body: overHttp.body });
    }
    expect((await httpPull(token, cases[0])).status).toBe(400);
    // Not a pull at all: nothing comes back, and the socket still works.
    client.socket.send("{not json");
    client.socket.send(JSON.stringify({ type: "pull", id: "x" }));
    await roundTrip(client);
    expect(client.closedWith).toBeNull();
  });

  it("serve only the socket's own workspace and user: another session's client group is refused, another workspace's rows never come", async () => {
    const a = await pulledOnce();
    const b = await pulledOnce();
    // B's socket presents A's client group: refused, as over HTTP.
    const stolen = await socketPull(b.client, pullRequest({ clientGroupID: a.clientGroupID, cookie: a.cookie }));
    expect(stolen).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    // A's cookie on B's socket with B's group: B's workspace, never A's vehicles.
    const secret = await addVehicle(a.workspaceId, "Secret A");
    const answer = await socketPull(
      b.client,
      pullRequest({ clientGroupID: b.clientGroupID, cookie: { ...b.cookie, version: 0 } }),
    );
    const keys = "body" in answer ? (answer.body as PullBody).patch.map((op) => op.key ?? op.op) : ["viaHttp"];
    expect(keys).not.toContain(`vehicle/${secret}`);
    expect(JSON.stringify(answer)).not.toContain("Secret A");
  });

  it("stop with the session: a signed-out socket is closed and pulls nothing more", async () => {
    const { token, clientGroupID, cookie, client } = await pulledOnce();
    expect((await call("/api/signout", { method: "POST", token })).status).toBe(200);
    await expect.poll(() => client.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    const before = client.messages.length;
    try {
      client.socket.send(JSON.stringify({ type: "pull", id: 999, body: pullRequest({ clientGroupID, cookie }) }));
    } catch {
      // A closed socket may refuse to send at all: that is the point.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.messages.length).toBe(before);
  });

  it("cost no D1 statement of their own: 10 sockets pulling after a write cost what 1 does", async () => {
    const statementsForPulls = async (sockets: number) => {
      const a = await userWithWorkspace();
      await insertVehicle(a.workspaceId, { name: "Truck" });
      const browsers = await Promise.all(
        Array.from({ length: sockets }, async () => {
          const clientGroupID = crypto.randomUUID();
          const { cookie } = (await httpPull(a.token, pullRequest({ clientGroupID }))).body as PullBody;
          return { clientGroupID, cookie, client: await connect(a.workspaceId, a.token) };
        }),
      );
      // Each browser has pulled once over the socket already (its group's owner is known).
      await Promise.all(
        browsers.map((b) => socketPull(b.client, pullRequest({ clientGroupID: b.clientGroupID, cookie: b.cookie }))),
      );
      await addVehicle(a.workspaceId, `Added for ${sockets}`);
      d1Meter.on = true;
      d1Meter.statements = 0;
      try {
        const answers = await Promise.all(
          browsers.map((b) => socketPull(b.client, pullRequest({ clientGroupID: b.clientGroupID, cookie: b.cookie }))),
        );
        for (const answer of answers) expect(JSON.stringify(answer)).toContain(`Added for ${sockets}`);
        return d1Meter.statements;
      } finally {
        d1Meter.on = false;
      }
    };
    const one = await statementsForPulls(1);
    const ten = await statementsForPulls(10);
    expect(one).toBeGreaterThan(0); // the shared read itself (the meter is counting)
    expect(ten).toBe(one);
  });

  it("restart the session's idle clock, as HTTP pulls do: the room's re-check records the use", async () => {
    const { token, workspaceId, clientGroupID, cookie, client } = await pulledOnce();
    const hash = await sha256Hex(token);
    const long = Date.now() - 3 * 24 * 60 * 60 * 1000;
    await database(env.DB).update(sessions).set({ lastUsedAt: long }).where(eq(sessions.tokenHash, hash));
    await socketPull(client, pullRequest({ clientGroupID, cookie }));
    // The object's alarm at the minute's re-check (a test's clock moved on), as it rings by itself.
    await runObjectTasks(workspaceId, Date.now() + SOCKET_RECHECK_MS);
    const row = await database(env.DB)
      .select({ lastUsedAt: sessions.lastUsedAt })
      .from(sessions)
      .where(eq(sessions.tokenHash, hash))
      .get();
    expect(row!.lastUsedAt!).toBeGreaterThan(long);
    await roundTrip(client);
    expect(client.closedWith).toBeNull();
  });
});
