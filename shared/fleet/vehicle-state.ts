/**
 * How a vehicle is shown (docs/product.md sections 2 and 4): its beacon ACTIVE or not (green or grey
 * icon), and, with an active beacon, ignition off (Parked, blue) versus any other status (green).
 * The map, the panel list and the vehicle header all follow this one rule.
 */
export type VehicleState = "moving" | "parked" | "inactive";

export const VEHICLE_STATE_COLOURS = {
  moving: "#16a34a",
  parked: "#2563eb",
  inactive: "#a1a1aa",
} as const satisfies Record<VehicleState, string>;

export const isBeaconActive = (beaconStatus: string | null | undefined) => beaconStatus === "ACTIVE";

/** Ignition on: any reported status other than "off". No report yet counts as off. */
export const isIgnitionOn = (telemetryStatus: string | null | undefined) =>
  Boolean(telemetryStatus) && telemetryStatus !== "off";

export function vehicleState(
  beaconStatus: string | null | undefined,
  telemetryStatus: string | null | undefined,
): VehicleState {
  if (!isBeaconActive(beaconStatus)) return "inactive";
  return telemetryStatus === "off" ? "parked" : "moving";
}

/**
 * The fleet at a glance (issue 42's overview) counts four kinds, refining the map's rule above
 * rather than restating it: the map's grey is *silent* (no active beacon), its blue is *parked*,
 * and its green splits by the reported status into *idle* (ignition on, standing) and *moving*
 * (driving or towed). A vehicle counts in exactly one kind, the one its icon's colour says.
 */
export type FleetStatus = "moving" | "idle" | "parked" | "silent";
export const FLEET_STATUSES = ["moving", "idle", "parked", "silent"] as const satisfies readonly FleetStatus[];

export function fleetStatus(
  beaconStatus: string | null | undefined,
  telemetryStatus: string | null | undefined,
): FleetStatus {
  const state = vehicleState(beaconStatus, telemetryStatus);
  if (state === "inactive") return "silent";
  if (state === "parked") return "parked";
  return telemetryStatus === "idle" ? "idle" : "moving";
}

export const isFleetStatus = (value: string | null | undefined): value is FleetStatus =>
  (FLEET_STATUSES as readonly string[]).includes(value ?? "");
