import { useCallback, useMemo, useSyncExternalStore } from "react";
import { droveWithoutInspection, type DaySpan } from "../../shared/maintenance/drove-without-inspection";
import {
  scheduleStatus,
  scheduleView,
  type SyncedInspection,
  type SyncedInspectionForm,
  type SyncedSchedule,
  type SyncedServiceEntry,
} from "../../shared/sync/maintenance-sync";
import type {
  CreateServiceScheduleArgs,
  DeleteServiceArgs,
  LogServiceEntryArgs,
  ServiceSchedule,
  UpdateServiceScheduleArgs,
} from "../../shared/maintenance/service";
import type { SubmitInspectionArgs } from "../../shared/maintenance/inspections";
import type { serviceMutators } from "../../shared/maintenance/service-mutators";
import type { Telemetry } from "../../shared/fleet/telemetry";
import { metresToMiles } from "../../shared/units/units";
import type { Vehicle } from "../../shared/fleet/vehicle";
import type { VehicleEvent } from "../../shared/fleet/vehicle-event";
import type { ClientStore, EntityType } from "./client-store";
import { derivedValue } from "./derived-value";
import { useSync } from "../sync/sync-provider";
import { useClientStore } from "./index";

/**
 * Service schedules and entries, inspection forms and inspections from the synced store
 * (docs/decisions/0033): the Service tab, the Inspections pages and My actions read these, so
 * they render offline. Each value is derived again only when one of the types it reads changed.
 */
/** `key` names the value (hook and arguments): values of the same key are shared by every reader. */
export function useTypesValue<T>(types: readonly EntityType[], key: string, compute: (store: ClientStore) => T): T {
  const store = useClientStore();
  const typesKey = types.join(",");
  const subscribe = useCallback(
    (cb: () => void) => {
      const offs = typesKey.split(",").map((t) => store.subscribeType(t as EntityType, cb));
      return () => offs.forEach((off) => off());
    },
    [store, typesKey],
  );
  const get = () => derivedValue(store, types, key, compute);
  return useSyncExternalStore(subscribe, get, get);
}

/** The vehicle's odometer (miles) as the store knows it; engine hours are the server's (see scheduleView). */
function readingOf(store: ClientStore, vehicleId: string) {
  const odometer = store.get<Telemetry>("telemetry", vehicleId)?.odometer ?? null;
  return { odometerMiles: odometer === null ? null : Math.round(metresToMiles(odometer) * 10) / 10, engineHours: null };
}

const compareText = new Intl.Collator().compare;
const byStatusThenName = (a: ServiceSchedule, b: ServiceSchedule) =>
  a.status === b.status
    ? compareText(a.name, b.name)
    : a.status === "overdue"
      ? -1
      : b.status === "overdue"
        ? 1
        : a.status === "due_soon"
          ? -1
          : 1;

/** One vehicle's schedules with their status, the most urgent first. */
export function useVehicleSchedules(vehicleId: string): ServiceSchedule[] {
  return useTypesValue(["service-schedule", "telemetry"], `schedules|${vehicleId}`, (s) =>
    s
      .list<SyncedSchedule>("service-schedule")
      .filter((x) => x.vehicleId === vehicleId)
      .map((x) => scheduleView(x, readingOf(s, vehicleId), Date.now()))
      .sort(byStatusThenName),
  );
}

/**
 * The fleet's schedules due soon or overdue (vehicles still in the fleet), overdue first. Only the
 * status is worked out for every schedule; the full view (dates as text) only for the due ones.
 */
export function useDueService(): ServiceSchedule[] {
  return useTypesValue(["service-schedule", "telemetry", "vehicle"], "due", (s) => {
    const now = Date.now();
    const due: ServiceSchedule[] = [];
    for (const x of s.list<SyncedSchedule>("service-schedule")) {
      if (!s.get<Vehicle>("vehicle", x.vehicleId)) continue;
      const reading = readingOf(s, x.vehicleId);
      if (scheduleStatus(x, reading, now) !== "ok") due.push(scheduleView(x, reading, now));
    }
    return due.sort(byStatusThenName);
  });
}

/** One vehicle's synced service entries (the last 90 days, and any logged since this device synced), newest first. */
export function useServiceEntries(vehicleId: string): SyncedServiceEntry[] {
  return useTypesValue(["service-entry"], `entries|${vehicleId}`, (s) =>
    s
      .list<SyncedServiceEntry>("service-entry")
      .filter((e) => e.vehicleId === vehicleId)
      .sort((a, b) => (a.date === b.date ? b.createdAt - a.createdAt : a.date < b.date ? 1 : -1)),
  );
}

/** The workspace's inspection forms, the default one first. */
export function useInspectionForms(): SyncedInspectionForm[] {
  return useTypesValue(["inspection-form"], "forms", (s) =>
    s
      .list<SyncedInspectionForm>("inspection-form")
      .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name)),
  );
}

/** Synced inspections (the last 7 days, and any submitted since this device synced), of one vehicle or all, newest first. */
export function useInspections(vehicleId?: string): SyncedInspection[] {
  return useTypesValue(["inspection"], `inspections|${vehicleId ?? ""}`, (s) =>
    s
      .list<SyncedInspection>("inspection")
      .filter((i) => !vehicleId || i.vehicleId === vehicleId)
      .sort((a, b) => b.submittedAt - a.submittedAt),
  );
}

/**
 * Vehicles that drove today without today's inspection, by the rule `GET /api/my-actions` applies
 * too (shared/maintenance/drove-without-inspection.ts), from the same rows: the trips among each vehicle's
 * synced events and the synced inspections (the last 7 days), by name.
 */
export function useUninspectedToday(day: DaySpan): Vehicle[] {
  return useTypesValue(["vehicle", "event", "inspection"], `uninspected|${day.start}`, (s) =>
    droveWithoutInspection({
      vehicles: s.vehiclesByName<Vehicle>(),
      tripsOf: (id) => s.eventsOf<VehicleEvent>(id),
      inspections: s.list<SyncedInspection>("inspection"),
      day,
    }),
  );
}

/** Inspections submitted through the sync mutator (shared/maintenance/inspection-mutators.ts): optimistic, and kept while offline. */
export function useInspectionMutations() {
  const sync = useSync();
  return useMemo(
    () => ({
      submit: async (args: SubmitInspectionArgs) => {
        if (!sync) throw new Error("The local store is not ready");
        await sync.client.mutate("submitInspection", args);
      },
    }),
    [sync],
  );
}

/**
 * "Log service", "Add schedule" and (owners and admins) editing or deleting a schedule and deleting
 * an entry, through sync mutators (shared/maintenance/service-mutators.ts): optimistic, and kept while offline.
 */
export function useServiceMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run = async (name: ServiceMutation, args: unknown) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    };
    return {
      logService: (args: LogServiceEntryArgs) => run("logServiceEntry", args),
      addSchedule: (args: CreateServiceScheduleArgs) => run("createServiceSchedule", args),
      editSchedule: (args: UpdateServiceScheduleArgs) => run("updateServiceSchedule", args),
      deleteSchedule: (args: DeleteServiceArgs) => run("deleteServiceSchedule", args),
      deleteEntry: (args: DeleteServiceArgs) => run("deleteServiceEntry", args),
    };
  }, [sync]);
}
type ServiceMutation = keyof typeof serviceMutators;
