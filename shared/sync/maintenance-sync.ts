import type { InspectionItem } from "../maintenance/inspections";
import {
  DAY_MS,
  scheduleDue,
  serviceStatuses,
  worseStatus,
  type ServiceEntry,
  type ServiceSchedule,
  type ServiceStatus,
  type VehicleReading,
} from "../maintenance/service";
import { type ServiceEntryTableWire, serviceEntryTable } from "../maintenance/service-entry-fields";
import {
  type ServiceScheduleTableValues,
  type ServiceScheduleTableWire,
  serviceScheduleTable,
} from "../maintenance/service-schedule-fields";
import { setIfPresent } from "./wire";

/**
 * Service schedules, inspection forms and a recent window of service entries and inspections in
 * the synced store (docs/decisions/0033), so the Service tab, the service due list, the
 * Inspections pages and My actions render offline. Compact values as for issues (ADR 0013): the
 * id is the key's, nulls left out, times in seconds. Older entries and inspections are read over
 * REST when the user asks ("Show older").
 */
export const SERVICE_SCHEDULE_PREFIX = "service-schedule/";
export const SERVICE_ENTRY_PREFIX = "service-entry/";
export const INSPECTION_FORM_PREFIX = "inspection-form/";
export const INSPECTION_PREFIX = "inspection/";
export const serviceScheduleKey = (id: string) => `${SERVICE_SCHEDULE_PREFIX}${id}`;
export const serviceEntryKey = (id: string) => `${SERVICE_ENTRY_PREFIX}${id}`;
export const inspectionFormKey = (id: string) => `${INSPECTION_FORM_PREFIX}${id}`;
export const inspectionKey = (id: string) => `${INSPECTION_PREFIX}${id}`;

/** A full sync carries service entries dated within this many days (older ones: REST, on demand). */
export const SYNCED_ENTRY_DAYS = 90;
/** A full sync carries inspections submitted within this long (one a day per vehicle adds up fast). */
export const SYNCED_INSPECTION_MS = 7 * DAY_MS;
/** The first day (YYYY-MM-DD, UTC) whose entries a full sync carries. */
export const firstSyncedEntryDay = (now: number) =>
  new Date(now - SYNCED_ENTRY_DAYS * DAY_MS).toISOString().slice(0, 10);

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A schedule in the store: what its status is computed from, and what the server last announced in this period. */
export interface SyncedSchedule extends ServiceScheduleTableValues {
  id: string;
  vehicleId: string;
  /** ms */
  lastDoneAt: number;
  lastDoneOdometerMiles: number | null;
  lastDoneEngineHours: number | null;
  /**
   * The status the server announced in the current period (due soon or overdue), or null. Engine
   * hours are counted on the server only, so this is how a browser learns an hours-based due.
   */
  announced: ServiceStatus | null;
}
/** The table's fields under their short keys (shared/maintenance/service-schedule-fields.ts), and the rest. */
export type ScheduleWire = ServiceScheduleTableWire & {
  v: string;
  at: number;
  om?: number;
  oh?: number;
  an?: number;
};

export function encodeSchedule(s: Omit<SyncedSchedule, "id">): ScheduleWire {
  const w = { v: s.vehicleId } as ScheduleWire;
  serviceScheduleTable.encode(s, w);
  w.at = seconds(s.lastDoneAt);
  setIfPresent(w, "om", s.lastDoneOdometerMiles);
  setIfPresent(w, "oh", s.lastDoneEngineHours);
  if (s.announced && s.announced !== "ok") w.an = serviceStatuses.indexOf(s.announced);
  return w;
}

export function decodeSchedule(id: string, w: ScheduleWire): SyncedSchedule {
  return {
    id,
    vehicleId: w.v,
    ...serviceScheduleTable.decode(w),
    lastDoneAt: w.at * 1000,
    lastDoneOdometerMiles: w.om ?? null,
    lastDoneEngineHours: w.oh ?? null,
    announced: w.an === undefined ? null : (serviceStatuses[w.an] ?? null),
  };
}

/** The status a schedule row's `announced` (`{cycle}:{status}`) gives for its current cycle. */
export function announcedStatus(announced: string | null, cycle: number): ServiceStatus | null {
  if (!announced) return null;
  const [c, status] = announced.split(":");
  return Number(c) === cycle && (status === "due_soon" || status === "overdue") ? status : null;
}

/** A service entry as the store holds it: the REST shape, its creation time in ms. */
export type SyncedServiceEntry = Omit<ServiceEntry, "createdAt"> & { createdAt: number };
/** The table's fields under their short keys (shared/maintenance/service-entry-fields.ts), and the rest. */
export type ServiceEntryWire = ServiceEntryTableWire & {
  v: string;
  d: string;
  ph?: string[];
  sc?: string[];
  ri?: string[];
  t: number;
};

export function encodeServiceEntry(e: Omit<SyncedServiceEntry, "id">): ServiceEntryWire {
  const w: ServiceEntryWire = { v: e.vehicleId, d: e.date, t: seconds(e.createdAt) };
  serviceEntryTable.encode(e, w);
  if (e.photoIds.length) w.ph = e.photoIds;
  if (e.scheduleIds.length) w.sc = e.scheduleIds;
  if (e.resolvesIssueIds.length) w.ri = e.resolvesIssueIds;
  return w;
}

export function decodeServiceEntry(id: string, w: ServiceEntryWire): SyncedServiceEntry {
  return {
    id,
    vehicleId: w.v,
    date: w.d,
    ...serviceEntryTable.decode(w),
    photoIds: w.ph ?? [],
    scheduleIds: w.sc ?? [],
    resolvesIssueIds: w.ri ?? [],
    createdAt: w.t * 1000,
  };
}

export interface SyncedInspectionForm {
  id: string;
  name: string;
  items: InspectionItem[];
  isDefault: boolean;
}
export type InspectionFormWire = { n: string; it: InspectionItem[]; df?: 1 };

export function encodeInspectionForm(f: Omit<SyncedInspectionForm, "id">): InspectionFormWire {
  const w: InspectionFormWire = { n: f.name, it: f.items };
  if (f.isDefault) w.df = 1;
  return w;
}

export const decodeInspectionForm = (id: string, w: InspectionFormWire): SyncedInspectionForm => ({
  id,
  name: w.n,
  items: w.it,
  isDefault: w.df === 1,
});

/**
 * An inspection in the store: what the lists show (the items' answers are read over REST with the
 * inspection, GET /api/inspections?vehicleId=, when someone opens them).
 */
export interface SyncedInspection {
  id: string;
  vehicleId: string;
  formId: string;
  odometerMiles: number | null;
  signedName: string;
  failedItems: number;
  issueIds: string[];
  submittedByUserId: string | null;
  /** ms */
  submittedAt: number;
  /** This device's copy of a submission the server has not stored yet (shared/maintenance/inspection-mutators.ts). */
  waiting?: boolean;
}
export type InspectionWire = {
  v: string;
  f: string;
  o?: number;
  s: string;
  x?: number;
  i?: string[];
  b?: string;
  t: number;
  /** waiting: set by the device's mutator only, never by the server */
  w?: 1;
};

export function encodeInspection(i: Omit<SyncedInspection, "id">): InspectionWire {
  const w: InspectionWire = { v: i.vehicleId, f: i.formId, s: i.signedName, t: seconds(i.submittedAt) };
  setIfPresent(w, "o", i.odometerMiles);
  if (i.failedItems) w.x = i.failedItems;
  if (i.issueIds.length) w.i = i.issueIds;
  setIfPresent(w, "b", i.submittedByUserId);
  if (i.waiting) w.w = 1;
  return w;
}

export const decodeInspection = (id: string, w: InspectionWire): SyncedInspection => ({
  id,
  vehicleId: w.v,
  formId: w.f,
  odometerMiles: w.o ?? null,
  signedName: w.s,
  failedItems: w.x ?? 0,
  issueIds: w.i ?? [],
  submittedByUserId: w.b ?? null,
  submittedAt: w.t * 1000,
  ...(w.w === 1 ? { waiting: true } : {}),
});

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A synced schedule as the REST API would answer it, computed on the device from the vehicle's
 * synced odometer and the clock; engine hours are known to the server only, so a due by hours
 * shows once the server's due check announced it (within a quarter hour).
 */
/** A synced schedule's status alone, as scheduleView gives it, without building the view. */
export function scheduleStatus(s: SyncedSchedule, reading: VehicleReading, now: number): ServiceSchedule["status"] {
  const status = scheduleDue(s, reading, now).status;
  return s.announced ? worseStatus(status, s.announced) : status;
}

export function scheduleView(s: SyncedSchedule, reading: VehicleReading, now: number): ServiceSchedule {
  const due = scheduleDue(s, reading, now);
  return {
    id: s.id,
    vehicleId: s.vehicleId,
    ...serviceScheduleTable.valuesOf(s),
    lastDoneAt: iso(s.lastDoneAt),
    lastDoneOdometerMiles: s.lastDoneOdometerMiles,
    lastDoneEngineHours: s.lastDoneEngineHours,
    status: s.announced ? worseStatus(due.status, s.announced) : due.status,
    nextDueMiles: due.nextDueMiles,
    nextDueAt: due.nextDueAt === null ? null : iso(due.nextDueAt),
    nextDueEngineHours: due.nextDueEngineHours,
  };
}
