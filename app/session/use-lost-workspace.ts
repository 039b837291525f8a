import { useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useSession } from "./session";
import { useSwitchWorkspace } from "./workspace-actions";

/**
 * A signed-in page whose session names no workspace (the member was removed, or left): go to
 * another workspace the viewer still holds, else to /setup, without a reload. The session check
 * (run when the room closed the socket) has already deleted the lost workspace's local store.
 */
export function useLeaveLostWorkspace() {
  const session = useSession();
  const navigate = useNavigate();
  const switchTo = useSwitchWorkspace();
  const moving = useRef(false);
  const lost = !session.loading && session.isAuthenticated && !session.workspace;
  const next = session.workspaces[0]?.id;
  useEffect(() => {
    if (!lost || moving.current) return;
    moving.current = true;
    const move = next ? switchTo(next) : Promise.resolve(navigate("/setup", { replace: true }));
    void move.catch(() => navigate("/setup", { replace: true })).finally(() => (moving.current = false));
  }, [lost, next, switchTo, navigate]);
}
