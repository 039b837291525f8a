import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { UpdateVehicleArgs } from "../../shared/sync/mutators";
import type { Driver } from "../../shared/fleet/driver";
import { telemetryKey, type Telemetry } from "../../shared/fleet/telemetry";
import { vehicleKey, type Vehicle } from "../../shared/fleet/vehicle";
import type { VehicleEvent } from "../../shared/fleet/vehicle-event";
import { useSync } from "../sync/sync-provider";
import { ClientStore, compareByName, eventGroup, type StoreChange } from "./client-store";

export type { StoreChange };
export { ClientStore };

/** Before the sync client exists, hooks read an empty, still-loading store. */
const empty = new ClientStore();

export function useClientStore(): ClientStore {
  return useSync()?.store ?? empty;
}

/**
 * A value read from the store, re-read only when what `listen` subscribes to changes (a type,
 * one object, one vehicle's events, the status flags), so a report of one vehicle wakes only
 * the components showing that vehicle.
 */
function useStoreValue<T>(
  listen: (store: ClientStore, cb: () => void) => () => void,
  select: (store: ClientStore) => T,
): T {
  const store = useClientStore();
  const subscribe = useCallback((cb: () => void) => listen(store, cb), [store, listen]);
  const get = useCallback(() => select(store), [store, select]);
  return useSyncExternalStore(subscribe, get, get);
}

const listenStatus = (s: ClientStore, cb: () => void) => s.subscribeStatus(cb);
const listenVehicles = (s: ClientStore, cb: () => void) => s.subscribeType("vehicle", cb);
const listenDrivers = (s: ClientStore, cb: () => void) => s.subscribeType("driver", cb);

export function useStoreStatus(): { loading: boolean; hydrated: boolean; pulled: boolean } {
  const loading = useStoreValue(
    listenStatus,
    useCallback((s: ClientStore) => s.loading, []),
  );
  const hydrated = useStoreValue(
    listenStatus,
    useCallback((s: ClientStore) => s.hydrated, []),
  );
  const pulled = useStoreValue(
    listenStatus,
    useCallback((s: ClientStore) => s.pulled, []),
  );
  return useMemo(() => ({ loading, hydrated, pulled }), [loading, hydrated, pulled]);
}

/** Every vehicle, sorted by name; the same array until a vehicle changes (kept sorted incrementally). */
export function useVehicles(): Vehicle[] {
  return useStoreValue(
    listenVehicles,
    useCallback((s: ClientStore) => s.vehiclesByName<Vehicle>(), []),
  );
}

function useGroup(group: string | undefined) {
  return useCallback((s: ClientStore, cb: () => void) => (group ? s.subscribeGroup(group, cb) : () => {}), [group]);
}

export function useVehicle(id: string | undefined): Vehicle | undefined {
  return useStoreValue(
    useGroup(id && vehicleKey(id)),
    useCallback((s: ClientStore) => (id ? s.get<Vehicle>("vehicle", id) : undefined), [id]),
  );
}

export function useTelemetry(vehicleId: string | undefined): Telemetry | undefined {
  return useStoreValue(
    useGroup(vehicleId && telemetryKey(vehicleId)),
    useCallback((s: ClientStore) => (vehicleId ? s.get<Telemetry>("telemetry", vehicleId) : undefined), [vehicleId]),
  );
}

/** A vehicle's timeline events, newest first. */
export function useVehicleEvents(vehicleId: string | undefined): VehicleEvent[] {
  return useStoreValue(
    useGroup(vehicleId && eventGroup(vehicleId)),
    useCallback((s: ClientStore) => (vehicleId ? s.eventsOf<VehicleEvent>(vehicleId) : NO_EVENTS), [vehicleId]),
  );
}
const NO_EVENTS: VehicleEvent[] = [];

/** The fleet's drivers (people, not accounts), sorted by name; the same array until one changes. */
export function useDrivers(): Driver[] {
  return useStoreValue(
    listenDrivers,
    useCallback(
      (s: ClientStore) => s.memo("driversByName", "driver", () => s.list<Driver>("driver").sort(compareByName)),
      [],
    ),
  );
}

/** Runs a synced mutation (optimistic, works offline) through the sync worker. */
export function useMutation<A>(name: "createDriver" | "updateDriver" | "assignDriver"): (args: A) => Promise<void> {
  const sync = useSync();
  return useCallback(
    async (args: A) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    },
    [sync, name],
  );
}

export function useUpdateVehicle(): (input: UpdateVehicleArgs) => Promise<void> {
  const sync = useSync();
  return useCallback(
    async (input: UpdateVehicleArgs) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate("updateVehicle", input);
    },
    [sync],
  );
}
