import type { FleetModule } from "./fold/fold";
import { engineHoursModule } from "./fold/engine-hours";
import { rollupModule } from "./reports/rollup-module";
import { fuelWatchModule } from "./fuel/fuel-watch-module";

/**
 * The seam where per-fix modules plug into ingestion (docs/decisions/0016): the modules every
 * accepted report is folded through (domain/fold/fold.ts), in order. Each keeps its per-vehicle
 * state under its name, stored with the vehicle's detector state and handed back on the next
 * report; its rows go to the D1 tables registered in party/live-fleet/flush-tables.ts. Places and
 * alerts (domain/alerts/module.ts) join these per workspace, as they need the workspace's watch.
 */
export const FLEET_MODULES: readonly FleetModule[] = [
  rollupModule as FleetModule,
  engineHoursModule as FleetModule,
  // before the alert rules, which hear of its refuels and drops (AcceptedFix.fuelEvents)
  fuelWatchModule as FleetModule,
];
