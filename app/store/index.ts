import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { UpdateVehicleArgs } from "../../shared/mutators";
import type { Telemetry } from "../../shared/telemetry";
import type { Vehicle } from "../../shared/vehicle";
import type { VehicleEvent } from "../../shared/vehicle-event";
import { useSync } from "../sync/sync-provider";
import { ClientStore, type StoreChange } from "./client-store";

export type { StoreChange };
export { ClientStore };

/** Before the sync client exists, hooks read an empty, still-loading store. */
const empty = new ClientStore();

export function useClientStore(): ClientStore {
  return useSync()?.store ?? empty;
}

function useStoreValue<T>(select: (store: ClientStore) => T): T {
  const store = useClientStore();
  const subscribe = useCallback((cb: () => void) => store.subscribe(cb), [store]);
  const get = useCallback(() => select(store), [store, select]);
  return useSyncExternalStore(subscribe, get, get);
}

export function useStoreStatus(): { loading: boolean; hydrated: boolean; pulled: boolean } {
  const loading = useStoreValue(useCallback((s: ClientStore) => s.loading, []));
  const hydrated = useStoreValue(useCallback((s: ClientStore) => s.hydrated, []));
  const pulled = useStoreValue(useCallback((s: ClientStore) => s.pulled, []));
  return useMemo(() => ({ loading, hydrated, pulled }), [loading, hydrated, pulled]);
}

const byName = (a: Vehicle, b: Vehicle) => a.name.localeCompare(b.name, undefined, { numeric: true });

/** Every vehicle, sorted by name; the same array until a vehicle changes. */
export function useVehicles(): Vehicle[] {
  return useStoreValue(useCallback((s: ClientStore) => s.memo("vehicles", "vehicle", () => s.list<Vehicle>("vehicle").sort(byName)), []));
}

export function useVehicle(id: string | undefined): Vehicle | undefined {
  return useStoreValue(useCallback((s: ClientStore) => (id ? s.get<Vehicle>("vehicle", id) : undefined), [id]));
}

export function useTelemetry(vehicleId: string | undefined): Telemetry | undefined {
  return useStoreValue(useCallback((s: ClientStore) => (vehicleId ? s.get<Telemetry>("telemetry", vehicleId) : undefined), [vehicleId]));
}

/** A vehicle's timeline events, newest first. */
export function useVehicleEvents(vehicleId: string | undefined): VehicleEvent[] {
  return useStoreValue(
    useCallback(
      (s: ClientStore) =>
        vehicleId
          ? s.memo(`events/${vehicleId}`, "event", () =>
              s.list<VehicleEvent>("event", `${vehicleId}/`).sort((a, b) => b.startTime - a.startTime),
            )
          : NO_EVENTS,
      [vehicleId],
    ),
  );
}
const NO_EVENTS: VehicleEvent[] = [];

export function useUpdateVehicle(): (input: UpdateVehicleArgs) => Promise<void> {
  const sync = useSync();
  return useCallback(
    async (input: UpdateVehicleArgs) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.rep.mutate.updateVehicle(input);
    },
    [sync],
  );
}
