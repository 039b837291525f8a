import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POKE_MESSAGE } from "../shared/realtime";
import { SCHEMA_VERSION } from "../shared/sync-protocol";
import { createSession } from "./auth/session";
import { database } from "./db/client";
import { sessions, workspaces } from "./db/schema";
import { pokeWorkspace } from "./realtime";
import { call, insertVehicle, userWithWorkspace } from "./test/factories";
import { bumpVersion } from "./sync/version";
import { sha256Hex } from "./lib/crypto";

/**
 * The realtime room as a browser meets it: a websocket upgrade to /parties/workspace-room/<id>
 * through the Worker's own fetch handler (the same path partysocket takes), the session check in
 * front of the room, and the pokes the Worker sends after writes.
 */
interface Client {
  socket: WebSocket;
  messages: string[];
}

const open: WebSocket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});

const roomPath = (workspaceId: string, token?: string) =>
  `/parties/workspace-room/${workspaceId}${token === undefined ? "" : `?token=${encodeURIComponent(token)}`}`;

const upgrade = (workspaceId: string, token?: string) =>
  call(roomPath(workspaceId, token), { headers: { Upgrade: "websocket" } });

async function connect(workspaceId: string, token: string): Promise<Client> {
  const res = await upgrade(workspaceId, token);
  expect(res.status).toBe(101);
  const socket = res.webSocket!;
  socket.accept();
  open.push(socket);
  const messages: string[] = [];
  socket.addEventListener("message", (event) => {
    messages.push(String(event.data));
  });
  return { socket, messages };
}

/** A round trip through the room: everything the room sent this socket before has arrived. */
async function roundTrip(client: Client) {
  const pongs = client.messages.filter((m) => m === "pong").length;
  client.socket.send("ping");
  await expect.poll(() => client.messages.filter((m) => m === "pong").length).toBe(pongs + 1);
}

const workspaceVersion = async (id: string) =>
  (await database(env.DB).select({ version: workspaces.version }).from(workspaces).where(eq(workspaces.id, id)).get())!.version;

const pokes = (client: Client) => client.messages.filter((m) => m === POKE_MESSAGE).length;

async function refusal(res: Response) {
  expect(res.webSocket).toBeNull();
  return { status: res.status, body: (await res.json()) as { error: { code: string } } };
}

describe("joining a workspace room", () => {
  it("lets a live session of that workspace in", async () => {
    const a = await userWithWorkspace();
    const client = await connect(a.workspaceId, a.token);
    await roundTrip(client);
  });

  it("refuses a socket without a token or with an unknown one", async () => {
    const a = await userWithWorkspace();
    expect(await refusal(await upgrade(a.workspaceId))).toEqual({ status: 401, body: { error: expect.objectContaining({ code: "unauthorized" }) } });
    expect((await refusal(await upgrade(a.workspaceId, "not-a-token"))).status).toBe(401);
    expect((await refusal(await upgrade(a.workspaceId, `${a.token}x`))).status).toBe(401);
  });

  it("refuses a revoked session and an expired one", async () => {
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const revoked = await createSession(db, a.userId, a.workspaceId);
    const expired = await createSession(db, a.userId, a.workspaceId);
    await db.update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.tokenHash, await sha256Hex(revoked)));
    await db.update(sessions).set({ expiresAt: Date.now() - 1 }).where(eq(sessions.tokenHash, await sha256Hex(expired)));
    expect((await refusal(await upgrade(a.workspaceId, revoked))).status).toBe(401);
    expect((await refusal(await upgrade(a.workspaceId, expired))).status).toBe(401);
    // Signing out through the API revokes the token for the room too.
    expect((await call("/api/signout", { method: "POST", token: a.token })).status).toBe(200);
    expect((await refusal(await upgrade(a.workspaceId, a.token))).status).toBe(401);
  });

  it("refuses a token of another workspace, and one with no workspace", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    expect(await refusal(await upgrade(a.workspaceId, b.token))).toEqual({ status: 403, body: { error: expect.objectContaining({ code: "forbidden" }) } });
    // The same user, signed in to another of their workspaces, is refused too: the room follows the session.
    const other = crypto.randomUUID();
    const db = database(env.DB);
    await db.insert(workspaces).values({ id: other, name: "Other" });
    const elsewhere = await createSession(db, a.userId, other);
    expect((await refusal(await upgrade(a.workspaceId, elsewhere))).status).toBe(403);
    const noWorkspace = await createSession(db, a.userId, null);
    expect((await refusal(await upgrade(a.workspaceId, noWorkspace))).status).toBe(403);
  });

  it("answers plain HTTP to a room with 403, and unknown parties with 404", async () => {
    const a = await userWithWorkspace();
    expect((await call(roomPath(a.workspaceId, a.token))).status).toBe(403);
    expect((await call(roomPath(a.workspaceId, a.token), { method: "POST", body: "poke" })).status).toBe(403);
    const unknown = await call(`/parties/no-such-party/${a.workspaceId}?token=${a.token}`, { headers: { Upgrade: "websocket" } });
    expect(unknown.status).toBe(404);
  });
});

describe("pokes", () => {
  it("reach every connection of the written workspace's room after a push, and none of another room", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicle = await insertVehicle(a.workspaceId);
    const first = await connect(a.workspaceId, a.token);
    const second = await connect(a.workspaceId, a.token);
    const elsewhere = await connect(b.workspaceId, b.token);

    const res = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: {
        pushVersion: 1,
        clientGroupID: crypto.randomUUID(),
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [
          { clientID: crypto.randomUUID(), id: 1, name: "updateVehicle", timestamp: 1, args: { id: vehicle, name: "Poked", vin: null, year: null, make: null, model: null } },
        ],
      },
    });
    expect(res.status).toBe(200);
    await expect.poll(() => pokes(first)).toBe(1);
    await expect.poll(() => pokes(second)).toBe(1);
    // Anything the room of b had sent would have arrived before this round trip's answer.
    await roundTrip(elsewhere);
    expect(pokes(elsewhere)).toBe(0);
  });

  it("are not sent for a push that changed nothing", async () => {
    const a = await userWithWorkspace();
    const client = await connect(a.workspaceId, a.token);
    const res = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: { pushVersion: 1, clientGroupID: crypto.randomUUID(), profileID: "p", schemaVersion: SCHEMA_VERSION, mutations: [] },
    });
    expect(res.status).toBe(200);
    await roundTrip(client);
    expect(pokes(client)).toBe(0);
  });

  it("are coalesced: a burst of writes makes few pokes, and a client pulling on them sees the last write", async () => {
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const client = await connect(a.workspaceId, a.token);
    // What a browser does on a poke: read the workspace as it is now (a pull reads the same version).
    const seen: number[] = [];
    client.socket.addEventListener("message", (event) => {
      if (event.data === POKE_MESSAGE) void workspaceVersion(a.workspaceId).then((v) => seen.push(v));
    });
    const write = async () => {
      await bumpVersion(db, a.workspaceId);
      await pokeWorkspace(env, a.workspaceId);
    };
    // The first write after a quiet spell is poked at once; the burst right after it falls into
    // the room's coalescing window and must still be announced, after its last write.
    await write();
    await expect.poll(() => seen.length).toBe(1);
    const burst = 20;
    await Promise.all(Array.from({ length: burst - 1 }, write));
    const last = await workspaceVersion(a.workspaceId);
    await expect.poll(() => seen.at(-1)).toBe(last);
    await roundTrip(client);
    expect(pokes(client)).toBeLessThan(burst / 2);
  });

  it("announce a write that follows right after a poke", async () => {
    const a = await userWithWorkspace();
    const client = await connect(a.workspaceId, a.token);
    await pokeWorkspace(env, a.workspaceId);
    await expect.poll(() => pokes(client)).toBe(1);
    await pokeWorkspace(env, a.workspaceId);
    await expect.poll(() => pokes(client)).toBe(2);
  });
});
