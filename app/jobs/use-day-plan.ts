import { useState } from "react";
import { toast } from "sonner";
import { routePlanSchema, type RoutePlan } from "../../shared/jobs/route-plan";
import { apiErrorOf, http } from "../lib/http";

/** What a plan request names: the page's day, and its vehicle when the page shows one. */
export interface PlanScope {
  date: string;
  vehicleId: string;
}

/** Why planning or applying stopped: the API's words, and whether the day changed under the plan. */
export interface PlanRefusal {
  message: string;
  outdated: boolean;
}

/**
 * Planning takes seconds on a big day (docs/decisions/0076 bounds it at a few): longer than ky's
 * 10 s default would never cut it, but a plan that does not come back in 30 s will not.
 */
const PLAN_TIMEOUT_MS = 30_000;

const keyOf = (scope: PlanScope) => `${scope.date}|${scope.vehicleId}`;

/** The plan request for the page's day and vehicle; `moveAssigned` lets it move jobs between vehicles. */
const planRequest = (scope: PlanScope, moveAssigned: boolean) => ({
  date: scope.date,
  keepAssigned: !moveAssigned,
  ...(scope.vehicleId && { vehicleIds: [scope.vehicleId] }),
});

/**
 * "Plan the day" on the dispatch page (issue 54, docs/decisions/0088): asks the server for a
 * proposal (`POST /api/routes/plan`), holds it while the dispatcher looks, applies it
 * (`POST /api/routes/plan/apply`, one versioned write: the store then pulls the new order) or
 * discards it. The dispatcher may let it move jobs between vehicles (`keepAssigned: false`); by
 * default a job already on a vehicle stays there. A proposal belongs to the day and vehicle it was made for: changing the page's
 * filters puts it aside. A 409 `plan_outdated` says the day changed since, and planning again is
 * the way on.
 */
export function useDayPlan(scope: PlanScope) {
  const [proposal, setProposal] = useState<{ key: string; plan: RoutePlan } | null>(null);
  // Off: a job already on a vehicle stays on it (the API's keepAssigned); on, the plan may move it.
  const [moveAssigned, setMoveAssigned] = useState(false);
  const [pending, setPending] = useState<"plan" | "apply" | null>(null);
  const [refusal, setRefusal] = useState<PlanRefusal | null>(null);
  const key = keyOf(scope);

  const attempt = async (kind: "plan" | "apply", act: () => Promise<void>) => {
    setPending(kind);
    setRefusal(null);
    try {
      await act();
    } catch (error) {
      const body = await apiErrorOf(error);
      setRefusal({
        message: body?.message ?? "Could not reach the server; try again when online",
        outdated: body?.code === "plan_outdated",
      });
    } finally {
      setPending(null);
    }
  };

  const plan = () =>
    attempt("plan", async () => {
      setProposal(null);
      const json = planRequest(scope, moveAssigned);
      const answer = await http.post("routes/plan", { json, timeout: PLAN_TIMEOUT_MS, retry: 0 }).json();
      setProposal({ key, plan: routePlanSchema.parse(answer) });
    });

  const apply = () =>
    attempt("apply", async () => {
      if (!proposal) return;
      const routes = proposal.plan.routes.map((r) => ({ vehicleId: r.vehicleId, stops: r.stops }));
      await http.post("routes/plan/apply", { json: { routes }, retry: 0 });
      setProposal(null);
      toast("Plan applied: the day's stops are assigned and ordered");
    });

  const discard = () => {
    setProposal(null);
    setRefusal(null);
  };

  return {
    plan: proposal?.key === key ? proposal.plan : null,
    pending,
    refusal,
    moveAssigned,
    setMoveAssigned,
    run: () => void plan(),
    apply: () => void apply(),
    discard,
  };
}
