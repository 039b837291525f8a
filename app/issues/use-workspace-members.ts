import { useEffect, useMemo, useState } from "react";
import type { MemberRow, MembersResponse } from "../../shared/account/roles";
import { http } from "../lib/http";
import { useSession } from "../session/session";

type Member = Pick<MemberRow, "userId" | "email">;
const cacheKey = (workspaceId: string) => `fleet-members:${workspaceId}`;

function cached(workspaceId: string | undefined): Member[] {
  if (!workspaceId || typeof localStorage === "undefined") return [];
  try {
    return JSON.parse(localStorage.getItem(cacheKey(workspaceId)) ?? "[]") as Member[];
  } catch {
    return [];
  }
}

/**
 * The workspace's members (who an issue can be assigned to), from GET /api/workspaces/{id}/members
 * and kept in localStorage, so a phone offline can still pick and show assignees. Members are
 * not synced entities; the server checks an assignee again when the change arrives.
 */
export function useWorkspaceMembers() {
  const session = useSession();
  const workspaceId = session.workspace?.id;
  const [members, setMembers] = useState<Member[]>(() => cached(workspaceId));
  useEffect(() => {
    if (!workspaceId) return;
    setMembers(cached(workspaceId));
    let live = true;
    http
      .get(`workspaces/${workspaceId}/members`, { retry: 0 })
      .json<MembersResponse>()
      .then((res) => {
        const list = res.members.map(({ userId, email }) => ({ userId, email }));
        localStorage.setItem(cacheKey(workspaceId), JSON.stringify(list));
        if (live) setMembers(list);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [workspaceId]);

  const me = session.viewer;
  return useMemo(() => {
    // The viewer is always a member, even before the list has ever loaded.
    const all =
      me && !members.some((m) => m.userId === me.id) ? [{ userId: me.id, email: me.email }, ...members] : members;
    const byId = new Map(all.map((m) => [m.userId, m.email]));
    return {
      members: all,
      nameOf: (userId: string | null) =>
        userId ? (userId === me?.id ? "You" : (byId.get(userId) ?? "A former member")) : "Unassigned",
    };
  }, [members, me]);
}
