import { useMemo } from "react";
import type {
  DeleteFuelEntryArgs,
  FuelEntry,
  FuelFlag,
  LogFuelEntryArgs,
  SyncedFuelEntry,
  UpdateFuelEntryArgs,
} from "../../shared/costs/fuel";
import { fuelEntryFlags } from "../../shared/costs/fuel-flags";
import { fillUpsWithNoRise, unloggedRefuels, type SeenFuelEvent } from "../../shared/costs/fuel-check";
import type { Telemetry } from "../../shared/fleet/telemetry";
import { fuelChangeLitres, isFuelEvent, type VehicleEvent } from "../../shared/fleet/vehicle-event";
import type { ClientStore } from "./client-store";
import { useNow } from "../vehicles/use-now";
import type { fuelMutators } from "../../shared/costs/fuel-mutators";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useSync } from "../sync/sync-provider";
import { useTypesValue } from "./maintenance";

/**
 * Fill-ups from the synced store (docs/decisions/0045): the vehicle's Fuel tab and the fleet Fuel
 * page read these, so they render offline. Each entry carries the flags its vehicle's synced log
 * gives it (the rule the API applies, shared/costs/fuel-flags.ts).
 */
export type FuelRow = SyncedFuelEntry & { flags: FuelFlag[] };

/** The clock the check reads: a fill-up's window passing shows within the minute. */
const CHECK_CLOCK_MS = 60_000;
const minuteOf = (now: number) => Math.floor(now / CHECK_CLOCK_MS) * CHECK_CLOCK_MS;

/** The refuels and drops the store holds of these vehicles (the synced set keeps the checked days'). */
function fuelEventsOf(s: ClientStore, vehicleIds: Iterable<string>): (VehicleEvent & SeenFuelEvent)[] {
  const out: (VehicleEvent & SeenFuelEvent)[] = [];
  for (const id of vehicleIds)
    for (const e of s.eventsOf<VehicleEvent>(id)) if (isFuelEvent(e.type)) out.push(e as VehicleEvent & SeenFuelEvent);
  return out;
}
const reportsFuel = (s: ClientStore) => (vehicleId: string) =>
  (s.get<Telemetry>("telemetry", vehicleId)?.fuel ?? null) !== null;

/**
 * One vehicle's fill-ups, or the fleet's (vehicles still in it), newest first, each with the flags
 * the API gives it: its log's (shared/costs/fuel-flags.ts) and `no_rise_seen` (shared/costs/fuel-check.ts).
 */
export function useFuelEntries(vehicleId?: string): FuelRow[] {
  const now = minuteOf(useNow(CHECK_CLOCK_MS));
  return useTypesValue(["fuel-entry", "vehicle", "event", "telemetry"], `fuel|${vehicleId ?? ""}|${now}`, (s) => {
    const byVehicle = new Map<string, SyncedFuelEntry[]>();
    for (const e of s.list<SyncedFuelEntry>("fuel-entry")) {
      if (vehicleId && e.vehicleId !== vehicleId) continue;
      byVehicle.set(e.vehicleId, [...(byVehicle.get(e.vehicleId) ?? []), e]);
    }
    const all = [...byVehicle.values()].flat();
    const noRise = fillUpsWithNoRise(all, fuelEventsOf(s, byVehicle.keys()), reportsFuel(s), now);
    const rows: FuelRow[] = [];
    for (const [id, entries] of byVehicle) {
      const vehicle = s.get<Vehicle>("vehicle", id);
      if (!vehicle) continue;
      const flags = fuelEntryFlags(entries, vehicle.fuelTankLitres);
      for (const e of entries) {
        const own = flags.get(e.id) ?? [];
        rows.push({ ...e, flags: noRise.has(e.id) ? [...own, "no_rise_seen"] : own });
      }
    }
    return rows.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : 1));
  });
}

/** A refuel the beacon showed with no fill-up logged near it: the Fuel page's "check" row. */
export type UnloggedRefuel = VehicleEvent & SeenFuelEvent & { litres: number | null };

/** The fleet's (or one vehicle's) refuels with no fill-up near them, newest first, from the store (offline too). */
export function useUnloggedRefuels(vehicleId?: string): UnloggedRefuel[] {
  const now = minuteOf(useNow(CHECK_CLOCK_MS));
  return useTypesValue(["fuel-entry", "vehicle", "event"], `unlogged|${vehicleId ?? ""}|${now}`, (s) => {
    const vehicles = vehicleId ? [vehicleId] : s.ids("vehicle");
    const fills = s.list<SyncedFuelEntry>("fuel-entry");
    return unloggedRefuels(fuelEventsOf(s, vehicles), fills, now).map((e) => ({
      ...e,
      litres: fuelChangeLitres(e, s.get<Vehicle>("vehicle", e.vehicleId)?.fuelTankLitres),
    }));
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
