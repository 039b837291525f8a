import { ISSUE_PRIORITIES, isActiveStatus, type IssuePriority, type IssueStatus } from "../maintenance/issues";
import { fleetStatus, type FleetStatus } from "../fleet/vehicle-state";

/**
 * The overview's counts, each by the rule of the page it links to: vehicles by the map's colours
 * (shared/fleet/vehicle-state.ts), issues "open" as the Issues list's default filter (open and in
 * progress, shared/maintenance/issues.ts), so a figure and the list it opens always agree.
 */
export function countByFleetStatus(
  vehicles: readonly { id: string; beaconStatus: string }[],
  telemetryStatusOf: (vehicleId: string) => string | undefined,
): Record<FleetStatus, number> {
  const counts: Record<FleetStatus, number> = { moving: 0, idle: 0, parked: 0, silent: 0 };
  for (const v of vehicles) counts[fleetStatus(v.beaconStatus, telemetryStatusOf(v.id))]++;
  return counts;
}

/** Open issues (open or in progress) by priority; the Issues list shows a removed vehicle's too, so they count. */
export function openIssuesByPriority(
  issues: readonly { priority: IssuePriority; status: IssueStatus }[],
): Record<IssuePriority, number> {
  const counts = Object.fromEntries(ISSUE_PRIORITIES.map((p) => [p, 0])) as Record<IssuePriority, number>;
  for (const i of issues) if (isActiveStatus(i.status)) counts[i.priority]++;
  return counts;
}
