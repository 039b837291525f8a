import type { Vehicle } from "../../shared/fleet/vehicle";
import { ApiError, type Api, type ServerBeacon } from "./api";
import { assignFleet } from "./fleet";
import { sendReport } from "./osmand-client";
import type { Resume, SimReport } from "./vehicle";

const MIN = 60_000;
const HOUR = 60 * MIN;

/**
 * The demo's fuel drop (issue 42, docs/decisions/0050): its first vehicle (whose tank the fuel
 * seed sets) spent the night parked, its tracker reporting every 5 minutes, and lost 32 points of
 * its tank in 20 minutes five hours before the demo started, so the fuel watch finds a drop and
 * the `fuel_drop` rule puts it in the Inbox. Sent once, through the
 * public ingestion endpoint, before the vehicle's first live report: a night behind a vehicle's
 * newer reports would be late and never folded. The simulator then picks up where the night ended.
 */
export const OVERNIGHT = { hours: 9, endsHoursAgo: 1, everyMinutes: 5, startFuel: 78, lost: 32, dropMinutes: 20 };
export const DROP_HOURS_AGO = 5;
/** The rule the demo adds: a drop of 20 litres or more (about 5 gallons). */
export const DEMO_FUEL_DROP_RULE = { type: "fuel_drop", minLitres: 20 } as const;

/** The night's reports, parked where the vehicle will start, the level wobbling as a float's does. */
export function overnightReports(
  deviceId: string,
  at: { latitude: number; longitude: number },
  odometer: number,
  now: number,
) {
  const start = now - (OVERNIGHT.hours + OVERNIGHT.endsHoursAgo) * HOUR;
  const dropAt = now - DROP_HOURS_AGO * HOUR;
  const count = (OVERNIGHT.hours * 60) / OVERNIGHT.everyMinutes;
  return Array.from({ length: count + 1 }, (_, i): SimReport => {
    const time = start + i * OVERNIGHT.everyMinutes * MIN;
    const lost = time <= dropAt ? 0 : OVERNIGHT.lost * Math.min(1, (time - dropAt) / (OVERNIGHT.dropMinutes * MIN));
    return {
      deviceId,
      time,
      latitude: at.latitude,
      longitude: at.longitude,
      speed: 0,
      heading: 0,
      altitude: 20,
      accuracy: 5,
      battery: 90,
      ignition: false,
      fuel: Math.round((OVERNIGHT.startFuel - lost + ((i * 7) % 5) / 5 - 0.4) * 10) / 10,
      odometer,
    };
  });
}

/**
 * Adds the fuel_drop rule if the workspace has none, and sends the first vehicle's night if it has
 * never reported. Answers where the simulator should pick that vehicle up (empty when nothing sent).
 */
export async function seedOvernightFuelDrop(
  api: Api,
  beacons: ServerBeacon[],
  vehicles: Vehicle[],
  log: (line: string) => void,
): Promise<Map<string, Resume>> {
  const { rules } = await api.call<{ rules: { type: string }[] }>("GET", "alert-rules");
  if (!rules.some((r) => r.type === "fuel_drop")) await api.call("POST", "alert-rules", DEMO_FUEL_DROP_RULE);
  const vehicle = vehicles[0];
  const beacon = beacons.find((b) => b.vehicleId === vehicle?.id);
  if (!vehicle || !beacon || beacon.lastReportAt !== null) return new Map();
  const now = Date.now();
  const start = assignFleet(beacons, now).find((a) => a.beacon.id === beacon.id)!.vehicle;
  const night = overnightReports(beacon.id, start, start.odometer, now);
  for (const report of night) {
    const sent = await sendReport(api.baseUrl, report, "query");
    if (!sent.ok) throw new ApiError(sent.status, "ingest", `the overnight report was refused: ${sent.error ?? ""}`);
  }
  log(`${vehicle.name} lost ${OVERNIGHT.lost} % of its tank last night: the Inbox shows a fuel drop`);
  const last = night.at(-1)!;
  return new Map([
    [vehicle.id, { latitude: last.latitude, longitude: last.longitude, odometer: last.odometer, fuel: last.fuel }],
  ]);
}
