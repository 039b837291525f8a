import { useEffect, useState } from "react";
import type { CostReportResponse } from "../../shared/costs/cost-report";
import { monthCostsOf, overviewCostQuery, type MonthCosts } from "../../shared/overview/month-cost";
import { http } from "../lib/http";
import { useSession } from "../session/session";
import { useTypesValue } from "../store/maintenance";

/**
 * This month so far and last month, as the cost report answers them (shared/overview/month-cost.ts):
 * asked when the page opens and again whenever a synced fill-up, service entry or expense changes.
 * The last answer is kept per workspace in localStorage, so a page opened offline shows what the
 * server last said (for this month only); null until there is one.
 */
const key = (workspaceId: string) => `fleet-overview-costs:${workspaceId}`;

function remembered(workspaceId: string | undefined): CostReportResponse | null {
  if (!workspaceId || typeof localStorage === "undefined") return null;
  try {
    return JSON.parse(localStorage.getItem(key(workspaceId)) ?? "null") as CostReportResponse | null;
  } catch {
    return null;
  }
}

export function useOverviewCosts(today: string): MonthCosts | null {
  const workspaceId = useSession().workspace?.id;
  const [answer, setAnswer] = useState<CostReportResponse | null>(() => remembered(workspaceId));
  // A new object whenever the synced costs change: the cue to ask again.
  const costsChanged = useTypesValue(
    ["fuel-entry", "service-entry", "expense", "vehicle"],
    "overview-costs",
    () => ({}),
  );
  useEffect(() => {
    if (!workspaceId) return;
    const controller = new AbortController();
    http
      .get("reports/costs", { searchParams: overviewCostQuery(today), signal: controller.signal })
      .json<CostReportResponse>()
      .then((fresh) => {
        setAnswer(fresh);
        localStorage.setItem(key(workspaceId), JSON.stringify({ rows: fresh.rows }));
      })
      // Offline or refused: the kept answer stays.
      .catch(() => undefined);
    return () => controller.abort();
  }, [workspaceId, today, costsChanged]);
  return answer ? monthCostsOf(answer, today) : null;
}
