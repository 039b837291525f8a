import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { POKE_MESSAGE, SESSION_ENDED_CLOSE_CODE } from "../shared/sync/room-protocol";
import { SCHEMA_VERSION } from "../shared/sync/sync-protocol";
import { createSession } from "./auth/session";
import { database } from "./test/db";
import { memberships, realtimeTickets, sessions, users, workspaces } from "../db/schema";
import { announceWrites } from "./workspace-object";
import { call, insertVehicle, userWithWorkspace } from "./test/factories";
import { closeSockets, connect, keepOpen, roomPath, roundTrip, ticketFor, upgrade, type Client } from "./test/sockets";
import { bumpVersion } from "./test/db";
import { sha256Hex } from "./lib/crypto";
import { runObjectTasks } from "./test/ingest";
import { SOCKET_RECHECK_MS } from "../party/room/sockets";

/**
 * The realtime room as a browser meets it: a websocket upgrade to /parties/workspace-room/<id>
 * through the Worker's own fetch handler (the same path partysocket takes), the session check in
 * front of the room, and the pokes the Worker sends after writes.
 */
afterEach(closeSockets);

const workspaceVersion = async (id: string) =>
  (await database(env.DB).select({ version: workspaces.version }).from(workspaces).where(eq(workspaces.id, id)).get())!
    .version;

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

  it("refuses a socket without a ticket, with an unknown one, or with the session token in the URL", async () => {
    const a = await userWithWorkspace();
    expect(await refusal(await upgrade(a.workspaceId))).toEqual({
      status: 401,
      body: { error: expect.objectContaining({ code: "unauthorized" }) },
    });
    expect((await refusal(await upgrade(a.workspaceId, "not-a-ticket"))).status).toBe(401);
    expect((await refusal(await upgrade(a.workspaceId, a.token))).status).toBe(401);
    expect((await refusal(await upgrade(a.workspaceId, undefined, `?token=${a.token}`))).status).toBe(401);
  });

  it("lets a ticket open one socket only, and not after its minute", async () => {
    const a = await userWithWorkspace();
    const ticket = await ticketFor(a.token);
    const first = await upgrade(a.workspaceId, ticket);
    expect(first.status).toBe(101);
    first.webSocket!.accept();
    keepOpen(first.webSocket!);
    expect((await refusal(await upgrade(a.workspaceId, ticket))).status).toBe(401);
    const late = await ticketFor(a.token);
    await database(env.DB)
      .update(realtimeTickets)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(realtimeTickets.ticketHash, await sha256Hex(late)));
    expect((await refusal(await upgrade(a.workspaceId, late))).status).toBe(401);
  });

  it("issues no ticket to a revoked or expired session, and a ticket dies with its session", async () => {
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const revoked = await createSession(db, a.userId, a.workspaceId);
    const expired = await createSession(db, a.userId, a.workspaceId);
    const ticketBefore = await ticketFor(revoked);
    await db
      .update(sessions)
      .set({ revokedAt: Date.now() })
      .where(eq(sessions.tokenHash, await sha256Hex(revoked)));
    await db
      .update(sessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(sessions.tokenHash, await sha256Hex(expired)));
    expect((await call("/api/realtime/ticket", { method: "POST", token: revoked })).status).toBe(401);
    expect((await call("/api/realtime/ticket", { method: "POST", token: expired })).status).toBe(401);
    expect((await refusal(await upgrade(a.workspaceId, ticketBefore))).status).toBe(401);
  });

  it("refuses a session of another workspace (on the audit trail), and gives a session with no workspace no ticket", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const log = vi.spyOn(console, "log");
    expect(await refusal(await upgrade(a.workspaceId, await ticketFor(b.token)))).toEqual({
      status: 403,
      body: { error: expect.objectContaining({ code: "forbidden" }) },
    });
    const refused = log.mock.calls
      .map((args) => JSON.parse(String(args[0])) as Record<string, unknown>)
      .find((e) => e.event === "tenant.access_refused");
    expect(refused).toMatchObject({ audit: true, userId: b.userId, workspaceId: a.workspaceId, via: "realtime" });
    log.mockRestore();
    // The same user, signed in to another of their workspaces, is refused too: the room follows the session.
    const other = crypto.randomUUID();
    const db = database(env.DB);
    await db.insert(workspaces).values({ id: other, name: "Other" });
    await db.insert(memberships).values({ workspaceId: other, userId: a.userId, role: "owner" });
    const elsewhere = await createSession(db, a.userId, other);
    expect((await refusal(await upgrade(a.workspaceId, await ticketFor(elsewhere)))).status).toBe(403);
    const noWorkspace = await createSession(db, a.userId, null);
    expect((await call("/api/realtime/ticket", { method: "POST", token: noWorkspace })).status).toBe(403);
  });

  it("answers plain HTTP to a room with 403, and unknown parties with 404", async () => {
    const a = await userWithWorkspace();
    expect((await call(roomPath(a.workspaceId, await ticketFor(a.token)))).status).toBe(403);
    expect(
      (await call(roomPath(a.workspaceId, await ticketFor(a.token)), { method: "POST", body: "poke" })).status,
    ).toBe(403);
    const unknown = await call(`/parties/no-such-party/${a.workspaceId}?ticket=${await ticketFor(a.token)}`, {
      headers: { Upgrade: "websocket" },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("ending a session closes its sockets", () => {
  it("sign-out closes the sockets of that sign-in and leaves other people's open", async () => {
    const a = await userWithWorkspace();
    const colleague = await createSession(database(env.DB), await memberOf(a.workspaceId), a.workspaceId);
    const mine = await connect(a.workspaceId, a.token);
    const theirs = await connect(a.workspaceId, colleague);
    expect((await call("/api/signout", { method: "POST", token: a.token })).status).toBe(200);
    await expect.poll(() => mine.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    await roundTrip(theirs);
    expect(theirs.closedWith).toBeNull();
  });

  it("sign out everywhere closes the sockets of every session of the account", async () => {
    const a = await userWithWorkspace();
    const otherDevice = await createSession(database(env.DB), a.userId, a.workspaceId);
    const first = await connect(a.workspaceId, a.token);
    const second = await connect(a.workspaceId, otherDevice);
    expect((await call("/api/signout/everywhere", { method: "POST", token: a.token })).status).toBe(200);
    await expect.poll(() => first.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    await expect.poll(() => second.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
  });

  it("a workspace switch closes the socket of the token it replaced", async () => {
    const a = await userWithWorkspace();
    const client = await connect(a.workspaceId, a.token);
    const res = await call("/api/workspaces/session", {
      method: "POST",
      token: a.token,
      json: { workspaceId: a.workspaceId },
    });
    expect(res.status).toBe(200);
    await expect.poll(() => client.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
  });

  it("a socket that reaches the room just after its session's revocation was announced is closed on arrival", async () => {
    // The race: the Worker checked the session (still live in D1 here) just before another request
    // revoked it and told the room; the room hears of the socket only after that notice.
    const a = await userWithWorkspace();
    const endedHashes = [await sha256Hex(a.token)];
    await announceWrites({ env }, [a.workspaceId], { change: { sessions: { endedHashes }, poke: false } });
    const late = await connect(a.workspaceId, a.token);
    await expect.poll(() => late.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    const colleague = await connect(
      a.workspaceId,
      await createSession(database(env.DB), await memberOf(a.workspaceId), a.workspaceId),
    );
    await roundTrip(colleague);
    expect(colleague.closedWith).toBeNull();
  });

  it("the room closes every socket of a member who was removed", async () => {
    const a = await userWithWorkspace();
    const colleagueId = await memberOf(a.workspaceId);
    const colleague = await connect(a.workspaceId, await createSession(database(env.DB), colleagueId, a.workspaceId));
    const owner = await connect(a.workspaceId, a.token);
    await announceWrites({ env }, [a.workspaceId], {
      change: { members: { removedUserIds: [colleagueId] }, poke: false },
    });
    await expect.poll(() => colleague.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    await roundTrip(owner);
    expect(owner.closedWith).toBeNull();
  });
});

describe("the room's periodic re-check", () => {
  it("closes the sockets of a session past its limit and of a member removed from the workspace", async () => {
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const stale = await createSession(db, a.userId, a.workspaceId);
    const colleagueId = await memberOf(a.workspaceId);
    const colleague = await connect(a.workspaceId, await createSession(db, colleagueId, a.workspaceId));
    const expiring = await connect(a.workspaceId, stale);
    const mine = await connect(a.workspaceId, a.token);
    await db
      .update(sessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(sessions.tokenHash, await sha256Hex(stale)));
    await db
      .delete(memberships)
      .where(and(eq(memberships.workspaceId, a.workspaceId), eq(memberships.userId, colleagueId)));
    // The object's alarm at the minute's re-check (a test's clock moved on), as it rings by itself.
    await runObjectTasks(a.workspaceId, Date.now() + SOCKET_RECHECK_MS);
    await expect.poll(() => expiring.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    await expect.poll(() => colleague.closedWith).toBe(SESSION_ENDED_CLOSE_CODE);
    await roundTrip(mine);
    expect(mine.closedWith).toBeNull();
  });
});

/** A second member of the workspace. */
async function memberOf(workspaceId: string) {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  await db.insert(users).values({ id, email: `colleague-${id.slice(0, 8)}@example.com` });
  await db.insert(memberships).values({ workspaceId, userId: id, role: "member" });
  return id;
}

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
          {
            clientID: crypto.randomUUID(),
            id: 1,
            name: "updateVehicle",
            timestamp: 1,
            args: { id: vehicle, name: "Poked", vin: null, year: null, make: null, model: null },
          },
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
      json: {
        pushVersion: 1,
        clientGroupID: crypto.randomUUID(),
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [],
      },
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
      await announceWrites({ env }, [a.workspaceId]);
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
    await announceWrites({ env }, [a.workspaceId]);
    await expect.poll(() => pokes(client)).toBe(1);
    await announceWrites({ env }, [a.workspaceId]);
    await expect.poll(() => pokes(client)).toBe(2);
  });
});
