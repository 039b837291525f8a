import { useCallback, useEffect, useState } from "react";
import { http } from "../lib/http";

/**
 * A GET of /api/* for pages whose data is read on demand (service history, inspections, My
 * actions): the answer, whether it failed, and `reload` after a write. A failed read keeps the
 * last answer (offline: what was shown stays).
 */
export function useApi<T>(path: string | null): { data: T | null; failed: boolean; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    let live = true;
    http
      .get(path)
      .json<T>()
      .then((body) => {
        if (!live) return;
        setData(body);
        setFailed(false);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, failed, reload };
}
