import type { BeaconReport } from "./fold";

/**
 * Reports of one device that carried no position (an OsmAnd report with only the cells and Wi-Fi
 * access points it sees, issue 56): nothing is folded or stored, the beacon's health counts them.
 * They travel the one ingestion path (throttles, device lookup, the object's batched calls and
 * flush), so counting them costs no D1 write of their own (docs/decisions/0090).
 */
export interface WithoutPosition {
  deviceId: string;
  withoutPosition: number;
}

/** One request to the workspace's object: one device's position reports, or its reports without one. */
export type IngestRequest = BeaconReport[] | WithoutPosition;

export const requestDeviceId = (request: IngestRequest): string =>
  Array.isArray(request) ? request[0]!.deviceId : request.deviceId;

/** How many reports a request carries (the device's throttle and a call's size count them all). */
export const requestSize = (request: IngestRequest): number =>
  Array.isArray(request) ? request.length : request.withoutPosition;

/** The position reports of requests (those without a position carry none). */
export const positionReports = (requests: readonly IngestRequest[]): BeaconReport[] =>
  requests.flatMap((r) => (Array.isArray(r) ? r : []));
