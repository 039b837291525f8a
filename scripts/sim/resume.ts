import { TELEMETRY_PREFIX, type Telemetry } from "../../shared/fleet/telemetry";
import type { Resume } from "./vehicle";

/** The last known position, odometer and fuel of each vehicle, from a workspace snapshot. */
export function resumeFrom(snapshot: Map<string, unknown>): Map<string, Resume> {
  const resume = new Map<string, Resume>();
  for (const [key, value] of snapshot) {
    if (!key.startsWith(TELEMETRY_PREFIX)) continue;
    const t = value as Telemetry;
    resume.set(t.vehicleId, { latitude: t.latitude, longitude: t.longitude, odometer: t.odometer, fuel: t.fuel });
  }
  return resume;
}
