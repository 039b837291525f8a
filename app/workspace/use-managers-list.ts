import { useCallback, useEffect, useState } from "react";
import { apiErrorOf, http } from "../lib/http";
import { useCan, useSession } from "../session/session";

/**
 * A list of the current workspace that only owners and admins read over REST (API tokens, live
 * share links): loaded when the card opens and again on `reload` after a change. `path` and
 * `parse` are module-level functions, so the loader stays the same between renders.
 */
export function useManagersList<T>(
  path: (workspaceId: string) => string,
  parse: (body: unknown) => T[],
  failure: string,
) {
  const workspaceId = useSession().workspace?.id;
  const mayManage = useCan("workspace.configure");
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    if (!workspaceId) return;
    try {
      setItems(parse(await http.get(path(workspaceId)).json()));
    } catch (err) {
      setError((await apiErrorOf(err))?.message ?? failure);
    }
  }, [workspaceId, path, parse, failure]);
  useEffect(() => {
    if (mayManage) void reload();
  }, [mayManage, reload]);
  return { workspaceId: mayManage ? workspaceId : undefined, items, error, reload };
}
