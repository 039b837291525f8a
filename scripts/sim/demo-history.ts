import type { Vehicle } from "../../shared/fleet/vehicle";
import { ApiError, type Api } from "./api";

const DAY_MS = 86_400_000;
/** Days of history before today: the cost report's last two months and the Summary report's 30 days. */
export const HISTORY_DAYS = 60;
/** Hours of driving a day: about 100 miles, as the fuel log's vehicles drive (scripts/sim/demo-fuel.ts). */
const HOURS_A_DAY = 3;

/**
 * The demo's driving before today (issue 42's cost table, the reports): each vehicle's working day
 * of the last 60 days, folded through the real trip detector and rollup by the development-only
 * /api/dev/reports/rollups. Without it the distance behind cost per mile was only what the
 * simulator drove since it started, against three weeks of fill-ups: a cost per mile in the
 * thousands. A day that already has its row (the simulator drove it) is left as it is, so running
 * it again changes nothing.
 */
export async function seedDemoHistory(api: Api, vehicles: Vehicle[], log: (line: string) => void) {
  if (!vehicles.length) return;
  const firstDay = new Date(Date.now() - HISTORY_DAYS * DAY_MS).toISOString().slice(0, 10);
  try {
    const seeded = await api.call<{ rows: number }>("POST", "dev/reports/rollups", {
      vehicleIds: vehicles.map((v) => v.id),
      firstDay,
      days: HISTORY_DAYS,
      hours: HOURS_A_DAY,
    });
    log(
      `Driving history of the ${HISTORY_DAYS} days before today filled in (${seeded.rows} vehicle-days; days already driven kept)`,
    );
  } catch (e) {
    // Only development Workers have this route; the reports then start from today.
    if (!(e instanceof ApiError && e.status === 404)) throw e;
    log("This Worker is not in development mode: no driving history before today");
  }
}
