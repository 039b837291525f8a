import { useCallback, useState } from "react";
import { http } from "../lib/http";

/**
 * History older than the synced window (docs/decisions/0033), read over REST only when the user
 * asks ("Show older"): the answer's rows, whether it is loading, and what went wrong (offline).
 */
export function useOlder<T>(path: string, pick: (body: unknown) => T[]) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(pick(await http.get(path).json()));
      setError(null);
    } catch {
      setError("Older history is shown when you are online.");
    } finally {
      setLoading(false);
    }
  }, [path, pick]);
  return { rows, loading, error, load };
}

/** The synced rows, then the older ones the server answered that the store does not hold. */
export function withOlder<T extends { id: string }>(synced: T[], older: T[] | null): T[] {
  if (!older) return synced;
  const held = new Set(synced.map((r) => r.id));
  return [...synced, ...older.filter((r) => !held.has(r.id))];
}
