import { getServerByName, routePartykitRequest } from "partyserver";
import type { ApiErrorBody } from "../shared/api";
import { PARTIES_PREFIX, PARTY_NAME } from "../shared/realtime";
import { findSession } from "./auth/session";
import { database } from "./db/client";
import type { Env } from "./env";

const ROOM_PATH = new RegExp(`^/${PARTIES_PREFIX}/${PARTY_NAME}/[^/]+$`);

/** Refusals are JSON like every other 4xx of the Worker (a browser's websocket only sees the status). */
const refuse = (status: 401 | 403, code: string, message: string) =>
  Response.json({ error: { code, message } } satisfies ApiErrorBody, { status, headers: { "Cache-Control": "no-store" } });

/**
 * Routes /parties/workspace-room/<workspaceId> to the workspace's room. A socket is only let in
 * with a live session token (query `token`, as browsers cannot set headers on websockets) whose
 * session names that very workspace; plain HTTP requests to rooms are refused. Any other path
 * under /parties answers null (the caller's 404).
 */
export async function routeRealtime(request: Request, env: Env): Promise<Response | null> {
  if (!ROOM_PATH.test(new URL(request.url).pathname)) return null;
  return routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const token = new URL(req.url).searchParams.get("token");
      const session = token ? await findSession(database(env.DB), token) : null;
      if (!session) return refuse(401, "unauthorized", "Sign in to continue");
      if (session.workspaceId !== lobby.name) return refuse(403, "forbidden", "This session is for another workspace");
    },
    onBeforeRequest: () => refuse(403, "forbidden", "Rooms only accept websockets"),
  });
}

/**
 * Tells every client of the workspace to pull. Call after the write has committed.
 *
 * A busy fleet commits many writes a second, and each poke is two RPCs to the room (naming it,
 * then poking). The room coalesces anyway, so this isolate sends at most one poke per
 * workspace every WORKER_POKE_INTERVAL_MS: the first at once (latency), later ones folded into
 * a single trailing poke that goes out after them, so the last change is always announced.
 *
 * Requests share plain data only, never promises: workerd ties a promise to the request that made
 * it, and another request awaiting it hangs. The request that schedules the trailing poke owns it
 * (its waitUntil keeps it alive); a later caller only sees that one is pending and returns.
 */
export const WORKER_POKE_INTERVAL_MS = 50;
const lastPokeAt = new Map<string, number>();
const trailingPending = new Set<string>();

export async function pokeWorkspace(env: Env, workspaceId: string): Promise<void> {
  if (trailingPending.has(workspaceId)) return; // not sent yet, so it will announce this write too
  const wait = (lastPokeAt.get(workspaceId) ?? 0) + WORKER_POKE_INTERVAL_MS - Date.now();
  if (wait > 0) {
    trailingPending.add(workspaceId);
    try {
      await new Promise((resolve) => setTimeout(resolve, wait));
    } finally {
      trailingPending.delete(workspaceId);
    }
  }
  await sendPoke(env, workspaceId);
}

async function sendPoke(env: Env, workspaceId: string): Promise<void> {
  lastPokeAt.set(workspaceId, Date.now());
  if (lastPokeAt.size > 10_000) lastPokeAt.clear(); // a hint, not state: forgetting it only costs a poke
  const room = await getServerByName(env.WorkspaceRoom, workspaceId);
  await room.poke();
}
