import { useNavigate } from "@remix-run/react";
import { useCallback } from "react";
import { http } from "../lib/http";
import { useSession } from "./session";

/**
 * Switches the session to another workspace: api/workspaces/session answers a new token that
 * replaces the old one; the session check reruns (the viewer is refetched) and the sync client
 * for the old workspace is closed and one for the new one opened.
 */
export function useSwitchWorkspace() {
  const session = useSession();
  const navigate = useNavigate();
  return useCallback(
    async (workspaceId: string) => {
      await session.replaceToken(
        async () => (await http.post("workspaces/session", { json: { workspaceId } }).json<{ token: string }>()).token,
      );
      navigate("/map");
    },
    [session, navigate],
  );
}
