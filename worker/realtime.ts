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

/** Tells every client of the workspace to pull. Call after the write has committed. */
export async function pokeWorkspace(env: Env, workspaceId: string): Promise<void> {
  const room = await getServerByName(env.WorkspaceRoom, workspaceId);
  await room.poke();
}
