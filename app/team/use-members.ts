import { useCallback, useEffect, useState } from "react";
import type { MembersResponse, Role } from "../../shared/account/roles";
import { apiErrorOf, http } from "../lib/http";

/**
 * The members and pending invites of a workspace (GET /api/workspaces/{id}/members), with the
 * calls that change them; each change reloads the list. `error` is the API's message of the last
 * failed call, shown on the page.
 */
export function useMembers(workspaceId: string | undefined) {
  const [data, setData] = useState<MembersResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (!workspaceId) return;
    try {
      setData(await http.get(`workspaces/${workspaceId}/members`).json<MembersResponse>());
    } catch (e) {
      setError((await apiErrorOf(e))?.message ?? "Could not load the members");
    }
  }, [workspaceId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Runs a change, then reloads; true when it worked. */
  const run = useCallback(
    async (change: () => Promise<unknown>) => {
      setError(null);
      try {
        await change();
        await reload();
        return true;
      } catch (e) {
        setError((await apiErrorOf(e))?.message ?? "Something went wrong");
        return false;
      }
    },
    [reload],
  );

  const base = `workspaces/${workspaceId}`;
  return {
    data,
    error,
    reload,
    changeRole: (userId: string, role: Role) => run(() => http.patch(`${base}/members/${userId}`, { json: { role } })),
    remove: (userId: string) => run(() => http.delete(`${base}/members/${userId}`)),
    resend: (inviteId: string) => run(() => http.post(`${base}/invites/${inviteId}/resend`)),
    revoke: (inviteId: string) => run(() => http.delete(`${base}/invites/${inviteId}`)),
  };
}
