import { useMemo } from "react";
import type {
  DeleteFuelEntryArgs,
  FuelEntry,
  FuelFlag,
  LogFuelEntryArgs,
  SyncedFuelEntry,
  UpdateFuelEntryArgs,
} from "../../shared/fuel";
import { fuelEntryFlags } from "../../shared/fuel-flags";
import type { fuelMutators } from "../../shared/fuel-mutators";
import type { Vehicle } from "../../shared/vehicle";
import { useSync } from "../sync/sync-provider";
import { useTypesValue } from "./maintenance";

/**
 * Fill-ups from the synced store (docs/decisions/0045): the vehicle's Fuel tab and the fleet Fuel
 * page read these, so they render offline. Each entry carries the flags its vehicle's synced log
 * gives it (the rule the API applies, shared/fuel-flags.ts).
 */
export type FuelRow = SyncedFuelEntry & { flags: FuelFlag[] };

/** One vehicle's fill-ups, or the fleet's (vehicles still in it), newest first. */
export function useFuelEntries(vehicleId?: string): FuelRow[] {
  return useTypesValue(["fuel-entry", "vehicle"], `fuel|${vehicleId ?? ""}`, (s) => {
    const byVehicle = new Map<string, SyncedFuelEntry[]>();
    for (const e of s.list<SyncedFuelEntry>("fuel-entry")) {
      if (vehicleId && e.vehicleId !== vehicleId) continue;
      byVehicle.set(e.vehicleId, [...(byVehicle.get(e.vehicleId) ?? []), e]);
    }
    const rows: FuelRow[] = [];
    for (const [id, entries] of byVehicle) {
      const vehicle = s.get<Vehicle>("vehicle", id);
      if (!vehicle) continue;
      const flags = fuelEntryFlags(entries, vehicle.fuelTankLitres);
      for (const e of entries) rows.push({ ...e, flags: flags.get(e.id) ?? [] });
    }
    return rows.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : 1));
  });
}

/** An entry as the REST API answers it (history older than the synced window), in the store's shape. */
export const fuelRowOf = ({ at, createdAt: _created, ...e }: FuelEntry): FuelRow => ({ ...e, at: Date.parse(at) });

/** "Log fuel", and (owners and admins) editing or deleting an entry, through sync mutators: optimistic, offline too. */
export function useFuelMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run = async (name: keyof typeof fuelMutators, args: unknown) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    };
    return {
      logFuel: (args: LogFuelEntryArgs) => run("logFuelEntry", args),
      editFuel: (args: UpdateFuelEntryArgs) => run("updateFuelEntry", args),
      deleteFuel: (args: DeleteFuelEntryArgs) => run("deleteFuelEntry", args),
    };
  }, [sync]);
}
