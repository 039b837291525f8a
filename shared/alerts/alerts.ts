import type { Alert, AlertKind } from "./alert-rules";
import { setIfPresent } from "../sync/wire";

/**
 * Alerts as synced (`alert/{id}`) and each member's read state (`alert-reads/{userId}`): alerts
 * at or before `readBefore` are read ("mark all read"), and so are the ones in `readIds`.
 */
export const ALERT_READS_PREFIX = "alert-reads/";
export const alertReadsKey = (userId: string) => `${ALERT_READS_PREFIX}${userId}`;

export type AlertWire = {
  t: AlertKind;
  r: string;
  v: string;
  p?: string;
  a: number;
  e?: number;
  la: number;
  lo: number;
  k?: number;
  /** a job alert's job: id, number, title (as it was when it happened) */
  j?: [string, number, string];
};

export function encodeAlert(a: Omit<Alert, "id">): AlertWire {
  const w: AlertWire = {
    t: a.type,
    r: a.ruleId,
    v: a.vehicleId,
    a: a.at,
    la: round6(a.latitude),
    lo: round6(a.longitude),
  };
  setIfPresent(w, "p", a.placeId);
  setIfPresent(w, "e", a.endAt);
  setIfPresent(w, "k", a.peak);
  if (a.jobId) w.j = [a.jobId, a.jobNumber ?? 0, a.jobTitle ?? ""];
  return w;
}

export function decodeAlert(id: string, w: AlertWire): Alert {
  return {
    id,
    type: w.t,
    ruleId: w.r,
    vehicleId: w.v,
    placeId: w.p ?? null,
    at: w.a,
    endAt: w.e ?? null,
    latitude: w.la,
    longitude: w.lo,
    peak: w.k ?? null,
    ...(w.j && { jobId: w.j[0], jobNumber: w.j[1], jobTitle: w.j[2] }),
  };
}

/** A job alert's job as REST and webhooks show it: `{ id, number, title }`, null for other alerts. */
export interface AlertJob {
  id: string;
  number: number;
  title: string;
}

export const alertJob = (a: Pick<Alert, "jobId" | "jobNumber" | "jobTitle">): AlertJob | null =>
  a.jobId ? { id: a.jobId, number: a.jobNumber ?? 0, title: a.jobTitle ?? "" } : null;

/** "#12 Deliver pallets": how a person reads which job an alert is about. */
export const jobLabel = (job: AlertJob) => `#${job.number} ${job.title}`;

export type AlertReadsWire = { b: number; i: string[] };
export const encodeAlertReads = (r: { readBefore: number; readIds: string[] }): AlertReadsWire => ({
  b: r.readBefore,
  i: r.readIds,
});

/** Whether a member has read an alert, given their read state (none: nothing read). */
export function isRead(alert: Pick<Alert, "id" | "at">, reads: AlertReadsWire | undefined): boolean {
  if (!reads) return false;
  return alert.at <= reads.b || reads.i.includes(alert.id);
}

/** Read ids kept per member beyond the "all read" mark; older ones are folded into it. */
export const MAX_READ_IDS = 500;

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
