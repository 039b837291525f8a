import { useEffect, useState } from "react";
import type { CostReportQuery, CostReportResponse } from "../../shared/costs/cost-report";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useTypesValue } from "../store/maintenance";

/**
 * The cost report's answer to `query` for a page that shows its figures outside the Reports page (the
 * overview's costs, the Fuel page's economy; docs/figures.md): asked when the page opens and again
 * whenever a synced fill-up, service entry or expense changes. The last answer is kept per workspace
 * and `name` in localStorage, so a page opened offline shows what the server last said; null until
 * there is one. The caller checks the kept answer still fits (its month, its days).
 */
type Query = Pick<CostReportQuery, "from" | "to" | "by">;
const keyOf = (name: string, workspaceId: string) => `fleet-${name}:${workspaceId}`;

function remembered(name: string, workspaceId: string | undefined): CostReportResponse | null {
  if (!workspaceId || typeof localStorage === "undefined") return null;
  try {
    return JSON.parse(localStorage.getItem(keyOf(name, workspaceId)) ?? "null") as CostReportResponse | null;
  } catch {
    return null;
  }
}

export function useKeptCostReport(name: string, query: Query): CostReportResponse | null {
  const workspaceId = useSession().workspace?.id;
  const [answer, setAnswer] = useState<CostReportResponse | null>(() => remembered(name, workspaceId));
  // A new object whenever the synced costs change: the cue to ask again.
  const costsChanged = useTypesValue(["fuel-entry", "service-entry", "expense", "vehicle"], `kept-${name}`, () => ({}));
  const { from, to, by } = query;
  useEffect(() => {
    if (!workspaceId) return;
    const controller = new AbortController();
    http
      .get("reports/costs", { searchParams: { from, to, by }, signal: controller.signal })
      .json<CostReportResponse>()
      .then((fresh) => {
        setAnswer(fresh);
        localStorage.setItem(keyOf(name, workspaceId), JSON.stringify(fresh));
      })
      // Offline or refused: the kept answer stays.
      .catch(() => undefined);
    return () => controller.abort();
  }, [name, workspaceId, from, to, by, costsChanged]);
  return answer;
}
