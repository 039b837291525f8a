import type { Db } from "../../db/client";
import { FLEET_MODULES } from "../../domain/fleet-modules";
import type { FleetModule } from "../../domain/fold/fold";
import { ObjectWatch } from "../alerts/workspace-watch";
import { DayPlans } from "../jobs/day-plans";
import type { JobTransition } from "../../domain/jobs/progress";
import type { WorkspaceChange } from "../workspace-change";

/**
 * What a report is folded against besides the vehicle itself: the workspace's places, rules and
 * time zone (party/alerts/workspace-watch.ts) and the day's jobs (party/jobs/day-plans.ts), held
 * by the object and brought up to date by the changes the Worker announces.
 */
export class FoldContext {
  readonly #watch: ObjectWatch;
  readonly #dayPlans: DayPlans;

  constructor(
    storage: DurableObjectStorage,
    workspaceId: string,
    db: () => Db,
    /** The jobs' transitions of each fix (customer messages: party/customer-messages/). */
    private readonly onJobTransitions?: (transitions: JobTransition[]) => void,
  ) {
    this.#watch = new ObjectWatch(storage, workspaceId, db);
    this.#dayPlans = new DayPlans(workspaceId, db);
  }

  /** The modules a report is folded with now. */
  async modules(now = Date.now()): Promise<FleetModule[]> {
    const { timeZone, rules } = await this.#watch.rows();
    return [
      ...FLEET_MODULES,
      ...(await this.#watch.modules()),
      ...(await this.#dayPlans.modules(
        now,
        timeZone,
        rules,
        this.onJobTransitions && ((_v, t) => this.onJobTransitions!(t)),
      )),
    ];
  }

  /** Reloads what the change touched; answers the workspace's time zone if it may have changed. */
  async changed(change: WorkspaceChange): Promise<string | undefined> {
    let timeZone = change.timeZone;
    if (change.places || change.rules || change.timeZone || change.tanks) {
      const rows = await this.#watch.reload().catch((error: unknown) => {
        // Marked stale: the next report tries D1 again (and folds with the stored copy meanwhile).
        console.error("changed: the watch's reload failed:", error);
        return null;
      });
      timeZone ??= rows?.timeZone ?? undefined;
    }
    // Read again before the next report is folded; the time zone's change moves the days too, and
    // a place's change its jobs' outline (domain/jobs/area.ts).
    if (change.jobs || change.timeZone || change.places) this.#dayPlans.invalidate();
    return timeZone;
  }

  /** The workspace's alert rules as the object holds them (the beacon watch raises by them). */
  async rules() {
    return (await this.#watch.rows()).rules;
  }
}
