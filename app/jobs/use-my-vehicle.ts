import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useDrivers, useVehicles } from "../store";
import { useSession } from "../session/session";

/**
 * The vehicle whose day "My day" shows: the one whose driver (a person of the fleet, ADR 0018) has
 * the signed-in member's e-mail; failing that, the one this device last chose, kept in
 * localStorage so a shared phone opens on its van, offline too.
 */
const KEY = "fleet-my-vehicle";
const listeners = new Set<() => void>();
const subscribe = (cb: () => void) => (listeners.add(cb), () => void listeners.delete(cb));
const readChoice = () => (typeof localStorage === "undefined" ? null : localStorage.getItem(KEY));

export function useMyVehicle(): { vehicle: Vehicle | null; byDriver: boolean; choose: (id: string) => void } {
  const vehicles = useVehicles();
  const drivers = useDrivers();
  const email = useSession().viewer?.email.toLowerCase();
  const chosen = useSyncExternalStore(subscribe, readChoice, () => null);
  const choose = useCallback((id: string) => {
    localStorage.setItem(KEY, id);
    for (const cb of listeners) cb();
  }, []);
  return useMemo(() => {
    const mine = drivers.find((d) => email && d.email?.toLowerCase() === email);
    const driven = mine ? vehicles.find((v) => v.driverId === mine.id) : undefined;
    const picked = chosen ? vehicles.find((v) => v.id === chosen) : undefined;
    return { vehicle: picked ?? driven ?? null, byDriver: !picked && Boolean(driven), choose };
  }, [vehicles, drivers, email, chosen, choose]);
}
