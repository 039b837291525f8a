import { useCallback, useMemo, useRef, useSyncExternalStore } from "react";
import {
  scheduleView,
  type SyncedInspection,
  type SyncedInspectionForm,
  type SyncedSchedule,
  type SyncedServiceEntry,
} from "../../shared/maintenance-sync";
import type { CreateServiceScheduleArgs, LogServiceEntryArgs, ServiceSchedule } from "../../shared/service";
import type { SubmitInspectionArgs } from "../../shared/inspections";
import type { Telemetry } from "../../shared/telemetry";
import { metresToMiles } from "../../shared/units";
import type { Vehicle } from "../../shared/vehicle";
import type { VehicleEvent } from "../../shared/vehicle-event";
import type { ClientStore, EntityType } from "./client-store";
import { useSync } from "../sync/sync-provider";
import { useClientStore } from "./index";

/**
 * Service schedules and entries, inspection forms and inspections from the synced store
 * (docs/decisions/0033): the Service tab, the Inspections pages and My actions read these, so
 * they render offline. Each value is derived again only when one of the types it reads changed.
 */
/**
 * Types that change many times a second in a moving fleet: a value derived from them is worked out
 * again at most once a minute (an odometer or a trip moves a due date or today's list slowly),
 * so 20,000 schedules are not re-evaluated on every position.
 */
const FAST_TYPES = new Set<EntityType>(["telemetry", "event"]);

function useTypesValue<T>(types: readonly EntityType[], key: string, compute: (store: ClientStore) => T): T {
  const store = useClientStore();
  const cache = useRef<{ stamp: string; value: T } | null>(null);
  const typesKey = types.join(",");
  const subscribe = useCallback(
    (cb: () => void) => {
      const offs = typesKey.split(",").map((t) => store.subscribeType(t as EntityType, cb));
      return () => offs.forEach((off) => off());
    },
    [store, typesKey],
  );
  const get = () => {
    const stamp = `${key}|${types.map((t) => (FAST_TYPES.has(t) ? Math.floor(Date.now() / 60_000) : store.version(t))).join(",")}`;
    if (cache.current?.stamp !== stamp) cache.current = { stamp, value: compute(store) };
    return cache.current.value;
  };
  return useSyncExternalStore(subscribe, get, get);
}

/** The vehicle's odometer (miles) as the store knows it; engine hours are the server's (see scheduleView). */
function readingOf(store: ClientStore, vehicleId: string) {
  const odometer = store.get<Telemetry>("telemetry", vehicleId)?.odometer ?? null;
  return { odometerMiles: odometer === null ? null : Math.round(metresToMiles(odometer) * 10) / 10, engineHours: null };
}

const byStatusThenName = (a: ServiceSchedule, b: ServiceSchedule) =>
  a.status === b.status
    ? a.name.localeCompare(b.name)
    : a.status === "overdue"
      ? -1
      : b.status === "overdue"
        ? 1
        : a.status === "due_soon"
          ? -1
          : 1;

/** One vehicle's schedules with their status, the most urgent first. */
export function useVehicleSchedules(vehicleId: string): ServiceSchedule[] {
  return useTypesValue(["service-schedule", "telemetry"], vehicleId, (s) =>
    s
      .list<SyncedSchedule>("service-schedule")
      .filter((x) => x.vehicleId === vehicleId)
      .map((x) => scheduleView(x, readingOf(s, vehicleId), Date.now()))
      .sort(byStatusThenName),
  );
}

/** The fleet's schedules due soon or overdue (vehicles still in the fleet), overdue first. */
export function useDueService(): ServiceSchedule[] {
  return useTypesValue(["service-schedule", "telemetry", "vehicle"], "due", (s) =>
    s
      .list<SyncedSchedule>("service-schedule")
      .filter((x) => s.get<Vehicle>("vehicle", x.vehicleId))
      .map((x) => scheduleView(x, readingOf(s, x.vehicleId), Date.now()))
      .filter((x) => x.status !== "ok")
      .sort(byStatusThenName),
  );
}

/** One vehicle's synced service entries (the last 90 days, and any logged since this device synced), newest first. */
export function useServiceEntries(vehicleId: string): SyncedServiceEntry[] {
  return useTypesValue(["service-entry"], vehicleId, (s) =>
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
  return useTypesValue(["inspection"], vehicleId ?? "", (s) =>
    s
      .list<SyncedInspection>("inspection")
      .filter((i) => !vehicleId || i.vehicleId === vehicleId)
      .sort((a, b) => b.submittedAt - a.submittedAt),
  );
}

/**
 * Vehicles that drove today (a trip that started or went on since `dayStart`, or moving now) and
 * have no inspection submitted since then, by name. The server's list (GET /api/my-actions) reads
 * its daily rollups; the device reads the trips it holds (each vehicle's latest).
 */
export function useUninspectedToday(dayStart: number): Vehicle[] {
  return useTypesValue(["vehicle", "telemetry", "event", "inspection"], String(dayStart), (s) => {
    const inspected = new Set(
      s
        .list<SyncedInspection>("inspection")
        .filter((i) => i.submittedAt >= dayStart)
        .map((i) => i.vehicleId),
    );
    return s.vehiclesByName<Vehicle>().filter((v) => {
      if (inspected.has(v.id)) return false;
      const t = s.get<Telemetry>("telemetry", v.id);
      if (t && t.status === "moving" && t.recordedAt >= dayStart) return true;
      return s.eventsOf<VehicleEvent>(v.id).some((e) => e.type === "TRANSIT" && (e.endTime ?? Date.now()) >= dayStart);
    });
  });
}

/** Inspections submitted through the sync mutator (shared/inspection-mutators.ts): optimistic, and kept while offline. */
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

/** "Log service" and "Add schedule" through sync mutators (shared/service-mutators.ts): optimistic, and kept while offline. */
export function useServiceMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run = async (name: "logServiceEntry" | "createServiceSchedule", args: unknown) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    };
    return {
      logService: (args: LogServiceEntryArgs) => run("logServiceEntry", args),
      addSchedule: (args: CreateServiceScheduleArgs) => run("createServiceSchedule", args),
    };
  }, [sync]);
}
