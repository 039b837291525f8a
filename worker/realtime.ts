import { getServerByName, routePartykitRequest } from "partyserver";
import { findSession } from "./auth/session";
import { database } from "./db/client";
import type { Env } from "./env";

/**
 * Routes /parties/workspace-room/<workspaceId> to the workspace's room. A socket is only let in
 * with a live session token (query `token`, as browsers cannot set headers on websockets) whose
 * session names that very workspace; plain HTTP requests to rooms are refused.
 */
export async function routeRealtime(request: Request, env: Env): Promise<Response | null> {
  return routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const token = new URL(req.url).searchParams.get("token");
      const session = token ? await findSession(database(env.DB), token) : null;
      if (!session) return new Response("Unauthorized", { status: 401 });
      if (session.workspaceId !== lobby.name) return new Response("Forbidden", { status: 403 });
    },
    onBeforeRequest: () => new Response("Forbidden", { status: 403 }),
  });
}

/** Tells every client of the workspace to pull. Call after the write has committed. */
export async function pokeWorkspace(env: Env, workspaceId: string): Promise<void> {
  const room = await getServerByName(env.WorkspaceRoom, workspaceId);
  await room.poke();
}
