import { useMemo } from "react";
import type { SyncedJob } from "../../shared/jobs/jobs";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { proposalStops } from "./day-plan";
import { PlanProposal, PlanTheDayButton } from "./plan-proposal";
import { useDayPlan } from "./use-day-plan";

/**
 * "Plan the day" as the dispatch page places it (issue 54, docs/decisions/0088): the action for its
 * header, the proposal's panel for beside today's routes, and the proposal's stops for the map
 * (null while there is none). Those who cannot edit jobs get none of it.
 */
export function usePlanTheDay({
  date,
  vehicleId,
  allOfDay,
  vehicles,
  canPlan,
}: {
  date: string;
  vehicleId: string;
  allOfDay: ReadonlyMap<string, readonly SyncedJob[]>;
  vehicles: readonly Vehicle[];
  canPlan: boolean;
}) {
  const dayPlan = useDayPlan({ date, vehicleId });
  const jobsById = useMemo(() => new Map([...allOfDay.values()].flat().map((j) => [j.id, j] as const)), [allOfDay]);
  const plan = canPlan ? dayPlan.plan : null;
  const proposed = useMemo(() => (plan ? proposalStops(plan, jobsById) : null), [plan, jobsById]);
  if (!canPlan) return { action: null, panel: null, proposed: null };
  const action = (
    <PlanTheDayButton
      pending={dayPlan.pending === "plan"}
      refusal={plan ? null : dayPlan.refusal}
      moveAssigned={dayPlan.moveAssigned}
      onMoveAssigned={dayPlan.setMoveAssigned}
      onPlan={dayPlan.run}
    />
  );
  const panel = plan ? (
    <PlanProposal
      plan={plan}
      jobsById={jobsById}
      vehicles={vehicles}
      pending={dayPlan.pending}
      refusal={dayPlan.refusal}
      onApply={dayPlan.apply}
      onDiscard={dayPlan.discard}
      onPlanAgain={dayPlan.run}
    />
  ) : null;
  return { action, panel, proposed };
}
