import type { ReadTransaction, WriteTransaction } from "replicache";
import { ISSUE_STATUSES, issueKey, type IssueWire } from "./issues";
import {
  decodeSchedule,
  encodeSchedule,
  encodeServiceEntry,
  serviceEntryKey,
  serviceScheduleKey,
  type ScheduleWire,
} from "../sync/maintenance-sync";
import {
  createServiceScheduleArgs,
  deleteServiceArgs,
  doneAt,
  lastDoneAtMs,
  logServiceEntryArgs,
  restartedBasis,
  scheduleAfterPatch,
  updateServiceScheduleArgs,
  type CreateServiceScheduleArgs,
  type DeleteServiceArgs,
  type LogServiceEntryArgs,
  type UpdateServiceScheduleArgs,
  type VehicleReading,
} from "./service";
import { serviceEntryTable } from "./service-entry-fields";
import { serviceScheduleTable } from "./service-schedule-fields";
import { telemetryKey, type TelemetryWire } from "../fleet/telemetry";
import { metresToMiles } from "../units/units";

/**
 * "Log service", "Add schedule" and, for owners and admins, editing or deleting a schedule and
 * deleting an entry, in the browser (optimistic, offline too), applied by the Worker
 * (worker/sync/service-mutators.ts) through the REST routes' own checks and writes. The browser
 * chooses ids, so the entry or schedule shows on the Service tab and in My actions at once; the
 * server's copy (its times, the engine hours only it knows) replaces this one with the next pull,
 * and a refused one goes away.
 */

/** The vehicle's odometer as this device last synced it; engine hours are the server's alone. */
async function readingIn(tx: ReadTransaction, vehicleId: string): Promise<VehicleReading> {
  const t = (await tx.get(telemetryKey(vehicleId))) as TelemetryWire | undefined;
  const odometerMiles = t?.o === undefined ? null : Math.round(metresToMiles(t.o) * 10) / 10;
  return { odometerMiles, engineHours: null };
}

const RESOLVED = ISSUE_STATUSES.indexOf("resolved");
const isActive = (w: IssueWire) => (w.s ?? 0) < RESOLVED;

export const serviceMutators = {
  async logServiceEntry(tx: WriteTransaction, input: LogServiceEntryArgs) {
    const { id, createdAt, ...entry } = logServiceEntryArgs.parse(input);
    if (await tx.has(serviceEntryKey(id))) return;
    const at = createdAt ?? Date.now();
    const scheduleIds = [...new Set(entry.scheduleIds)];
    const resolvesIssueIds = [...new Set(entry.resolvesIssueIds)];
    const fields = { ...entry, ...serviceEntryTable.given(entry) };
    await tx.set(serviceEntryKey(id), encodeServiceEntry({ ...fields, scheduleIds, resolvesIssueIds, createdAt: at }));
    const done = {
      day: entry.date,
      at: doneAt(entry.date, at),
      odometerMiles: fields.odometerMiles,
      engineHours: fields.engineHours,
    };
    const reading = await readingIn(tx, entry.vehicleId);
    for (const scheduleId of scheduleIds) {
      const wire = (await tx.get(serviceScheduleKey(scheduleId))) as ScheduleWire | undefined;
      if (!wire || wire.v !== entry.vehicleId) continue;
      const schedule = decodeSchedule(scheduleId, wire);
      const basis = restartedBasis(schedule, done, reading);
      if (basis)
        await tx.set(serviceScheduleKey(scheduleId), encodeSchedule({ ...schedule, ...basis, announced: null }));
    }
    for (const issueId of resolvesIssueIds) {
      const wire = (await tx.get(issueKey(issueId))) as IssueWire | undefined;
      if (wire && isActive(wire)) await tx.set(issueKey(issueId), { ...wire, s: RESOLVED });
    }
  },

  async createServiceSchedule(tx: WriteTransaction, input: CreateServiceScheduleArgs) {
    const { id, ...s } = createServiceScheduleArgs.parse(input);
    if (await tx.has(serviceScheduleKey(id))) return;
    const reading = await readingIn(tx, s.vehicleId);
    await tx.set(
      serviceScheduleKey(id),
      encodeSchedule({
        vehicleId: s.vehicleId,
        ...serviceScheduleTable.given(s),
        lastDoneAt: lastDoneAtMs(s.lastDoneAt, Date.now()),
        lastDoneOdometerMiles: s.lastDoneOdometerMiles ?? reading.odometerMiles,
        lastDoneEngineHours: s.lastDoneEngineHours ?? null,
        announced: null,
      }),
    );
  },

  /** As the server edits it (shared scheduleAfterPatch): an edit that would leave no interval changes nothing. */
  async updateServiceSchedule(tx: WriteTransaction, input: UpdateServiceScheduleArgs) {
    const { id, ...patch } = updateServiceScheduleArgs.parse(input);
    const wire = (await tx.get(serviceScheduleKey(id))) as ScheduleWire | undefined;
    if (!wire) return;
    const after = scheduleAfterPatch(decodeSchedule(id, wire), patch, Date.now());
    if (!after) return;
    const announced = after.intervalsChanged ? null : after.schedule.announced;
    await tx.set(serviceScheduleKey(id), encodeSchedule({ ...after.schedule, announced }));
  },

  /** Gone from the tab, the due list and My actions at once; the server's tombstone removes it everywhere else. */
  async deleteServiceSchedule(tx: WriteTransaction, input: DeleteServiceArgs) {
    await tx.del(serviceScheduleKey(deleteServiceArgs.parse(input).id));
  },

  /** The entry only: what it restarted or resolved stays (docs/decisions/0040-managing-schedules.md). */
  async deleteServiceEntry(tx: WriteTransaction, input: DeleteServiceArgs) {
    await tx.del(serviceEntryKey(deleteServiceArgs.parse(input).id));
  },
};
