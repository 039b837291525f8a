import type { ReadTransaction, WriteTransaction } from "replicache";
import { ISSUE_STATUSES, issueKey, type IssueWire } from "./issues";
import {
  decodeSchedule,
  encodeSchedule,
  encodeServiceEntry,
  serviceEntryKey,
  serviceScheduleKey,
  type ScheduleWire,
} from "./maintenance-sync";
import {
  createServiceScheduleArgs,
  doneAt,
  lastDoneAtMs,
  logServiceEntryArgs,
  restartedBasis,
  type CreateServiceScheduleArgs,
  type LogServiceEntryArgs,
  type VehicleReading,
} from "./service";
import { telemetryKey, type TelemetryWire } from "./telemetry";
import { metresToMiles } from "./units";

/**
 * "Log service" and "Add schedule" in the browser (optimistic, offline too), applied by the Worker
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
    const fields = {
      ...entry,
      odometerMiles: entry.odometerMiles ?? null,
      engineHours: entry.engineHours ?? null,
      description: entry.description ?? null,
      costCents: entry.costCents ?? null,
      vendor: entry.vendor ?? null,
      notes: entry.notes ?? null,
    };
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
        name: s.name,
        everyMiles: s.everyMiles ?? null,
        everyEngineHours: s.everyEngineHours ?? null,
        everyDays: s.everyDays ?? null,
        lastDoneAt: lastDoneAtMs(s.lastDoneAt, Date.now()),
        lastDoneOdometerMiles: s.lastDoneOdometerMiles ?? reading.odometerMiles,
        lastDoneEngineHours: s.lastDoneEngineHours ?? null,
        announced: null,
      }),
    );
  },
};
