import { useCallback, useEffect, useState } from "react";
import type { ActiveSession, ActiveSessionsAnswer } from "../../shared/account/account";
import { apiErrorOf, http } from "../lib/http";

/**
 * The account's active sign-ins (GET /api/account/sessions) and sign-out of one of them; the
 * list reloads after each sign-out, so what is shown is what the server still honours.
 */
export function useActiveSessions() {
  const [sessions, setSessions] = useState<ActiveSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setSessions((await http.get("account/sessions").json<ActiveSessionsAnswer>()).sessions);
      setError(null);
    } catch (e) {
      setError((await apiErrorOf(e))?.message ?? "Could not load your sessions. Check your connection and try again.");
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const signOut = useCallback(
    async (id: string) => {
      try {
        await http.post(`account/sessions/${encodeURIComponent(id)}/signout`, { retry: 0 });
      } catch (e) {
        setError((await apiErrorOf(e))?.message ?? "Could not sign that session out. Try again.");
      }
      await reload();
    },
    [reload],
  );

  return { sessions, error, signOut };
}
