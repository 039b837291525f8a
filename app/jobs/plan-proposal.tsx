import type { RoutePlan } from "../../shared/jobs/route-plan";
import type { SyncedJob } from "../../shared/jobs/jobs";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { timeText, type WorkspaceClock } from "../../shared/units/clock";
import type { WorkspaceUnits } from "../../shared/units/units";
import { useWorkspaceClock, useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { useReachable } from "../sync/use-reachable";
import { planDistanceText, planHoursText, reasonWords, totalChanges } from "./day-plan";
import { routeColour } from "./map-stops";
import type { PlanRefusal } from "./use-day-plan";

/**
 * "Plan the day": the action in the page's header. It needs the server (the planner runs there),
 * so offline it says so, as the pages only the server answers do (docs/decisions/0044).
 */
export function PlanTheDayButton({
  pending,
  refusal,
  moveAssigned,
  onMoveAssigned,
  onPlan,
}: {
  pending: boolean;
  /** Why the last request for a plan failed (a 429, a 400, no answer). */
  refusal: PlanRefusal | null;
  /** Whether the plan may move a job from the vehicle it is on to another. */
  moveAssigned: boolean;
  onMoveAssigned: (move: boolean) => void;
  onPlan: () => void;
}) {
  const reachable = useReachable();
  return (
    <div className="actions plan-the-day">
      {reachable ? null : (
        <span role="status" className="muted">
          Planning the day needs a connection
        </span>
      )}
      {reachable && refusal ? (
        <span role="alert" className="field-error">
          {refusal.message}
        </span>
      ) : null}
      <label className="plan-move-assigned">
        <input type="checkbox" checked={moveAssigned} onChange={(e) => onMoveAssigned(e.target.checked)} />
        <span>Let the plan move jobs between vehicles</span>
      </label>
      <button
        type="button"
        className="button primary"
        disabled={!reachable || pending}
        aria-busy={pending || undefined}
        onClick={onPlan}
      >
        {pending ? "Planning…" : "Plan the day"}
      </button>
    </div>
  );
}

interface ProposalProps {
  plan: RoutePlan;
  jobsById: ReadonlyMap<string, SyncedJob>;
  vehicles: readonly Vehicle[];
  pending: "plan" | "apply" | null;
  refusal: PlanRefusal | null;
  onApply: () => void;
  onDiscard: () => void;
  onPlanAgain: () => void;
}

/**
 * The proposal beside today's plan (issue 54): the day's distance, hours and late stops now and
 * proposed, each vehicle's stops in order with the planned arrival on the workspace's clock, and
 * the jobs left out with why. Nothing changes until "Apply plan".
 */
export function PlanProposal(props: ProposalProps) {
  const { plan, jobsById, vehicles, pending, refusal } = props;
  const clock = useWorkspaceClock();
  const units = useWorkspaceUnits();
  const reachable = useReachable();
  const nameOf = (vehicleId: string) => vehicles.find((v) => v.id === vehicleId)?.name ?? "A vehicle";
  const titleOf = (jobId: string) => jobsById.get(jobId)?.title ?? "A job deleted since";
  return (
    <section className="card plan-proposal" aria-label="Proposed plan">
      <h2>Proposed plan</h2>
      <p className="muted">Nothing changes until you apply it.</p>
      <PlanTotals plan={plan} units={units} />
      {plan.routes.map((route, index) => (
        <ProposedRoute
          key={route.vehicleId}
          route={route}
          name={nameOf(route.vehicleId)}
          colour={routeColour(index)}
          titleOf={titleOf}
          clock={clock}
          units={units}
        />
      ))}
      <LeftOut unassigned={plan.unassigned} titleOf={titleOf} />
      {refusal ? (
        <p role="alert" className="field-error">
          {refusal.outdated ? "The day changed since this plan was made: plan it again." : refusal.message}
        </p>
      ) : null}
      <div className="plan-actions">
        {refusal?.outdated ? (
          <button
            type="button"
            className="button primary"
            disabled={!reachable || pending !== null}
            onClick={props.onPlanAgain}
          >
            Plan again
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            disabled={!reachable || pending !== null || plan.routes.length === 0}
            aria-busy={pending === "apply" || undefined}
            onClick={props.onApply}
          >
            {pending === "apply" ? "Applying…" : "Apply plan"}
          </button>
        )}
        <button type="button" className="button" disabled={pending === "apply"} onClick={props.onDiscard}>
          Discard
        </button>
      </div>
    </section>
  );
}

/** The jobs the plan leaves out, each with why in a dispatcher's words. */
function LeftOut({ unassigned, titleOf }: { unassigned: RoutePlan["unassigned"]; titleOf: (jobId: string) => string }) {
  if (!unassigned.length) return null;
  return (
    <>
      <h3>Left out</h3>
      <ul className="plan-left-out" aria-label="Left out of the plan">
        {unassigned.map((u) => (
          <li key={u.jobId}>
            <strong>{titleOf(u.jobId)}</strong>: {reasonWords[u.reason]}
          </li>
        ))}
      </ul>
    </>
  );
}

function PlanTotals({ plan, units }: { plan: RoutePlan; units: WorkspaceUnits }) {
  return (
    <table className="plan-totals" aria-label="The day before and after">
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">Total</span>
          </th>
          <th scope="col">Now</th>
          <th scope="col">Proposed</th>
        </tr>
      </thead>
      <tbody>
        {totalChanges(plan, units).map((t) => (
          <tr key={t.label}>
            <th scope="row">{t.label}</th>
            <td>{t.before}</td>
            <td className={`plan-change ${t.change}`}>{t.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ProposedRoute({
  route,
  name,
  colour,
  titleOf,
  clock,
  units,
}: {
  route: RoutePlan["routes"][number];
  name: string;
  colour: string;
  titleOf: (jobId: string) => string;
  clock: WorkspaceClock;
  units: WorkspaceUnits;
}) {
  const stops = route.stops.length === 1 ? "1 stop" : `${route.stops.length} stops`;
  return (
    <section className="plan-route" style={{ borderLeftColor: colour }} aria-label={`Proposed route of ${name}`}>
      <h3>
        {name}{" "}
        <span className="muted">
          · {stops} · {planDistanceText(route.distanceMeters, units)} · {planHoursText(route.durationSeconds)}
        </span>
      </h3>
      <ol className="plan-stops" aria-label={`Proposed stops of ${name}`}>
        {route.stops.map((stop, n) => (
          <li key={stop.jobId}>
            <span className="stop-number" style={{ background: colour }} aria-hidden>
              {n + 1}
            </span>
            <span className="plan-stop-title">{titleOf(stop.jobId)}</span>
            <span className="plan-stop-arrival">{timeText(Date.parse(stop.arrival), clock)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
