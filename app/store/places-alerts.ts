import { useCallback, useSyncExternalStore } from "react";
import type { Alert, AlertRule, AlertRuleConfig } from "../../shared/alerts/alert-rules";
import { isRead, type AlertReadsWire } from "../../shared/alerts/alerts";
import type { CreatePlaceArgs, Place, UpdatePlaceArgs } from "../../shared/places/places";
import { useSession } from "../session/session";
import { useSync } from "../sync/sync-provider";
import type { ClientStore, EntityType } from "./client-store";
import { useClientStore } from "./index";

/** Places, alert rules, alerts and this member's read state from the synced store (ADR 0019). */
function useTypeValue<T>(type: EntityType, select: (store: ClientStore) => T): T {
  const store = useClientStore();
  const subscribe = useCallback((cb: () => void) => store.subscribeType(type, cb), [store, type]);
  const get = useCallback(() => select(store), [store, select]);
  return useSyncExternalStore(subscribe, get, get);
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { numeric: true });

export function usePlaces(): Place[] {
  return useTypeValue(
    "place",
    useCallback((s: ClientStore) => s.memo("placesByName", "place", () => s.list<Place>("place").sort(byName)), []),
  );
}

export function useAlertRules(): AlertRule[] {
  return useTypeValue(
    "alert-rule",
    useCallback(
      (s: ClientStore) =>
        s.memo("alertRules", "alert-rule", () =>
          s.ids("alert-rule").map((id) => ({ ...s.get<AlertRuleConfig>("alert-rule", id)!, id })),
        ),
      [],
    ),
  );
}

/** Every synced alert, newest first. */
export function useAlerts(): Alert[] {
  return useTypeValue(
    "alert",
    useCallback(
      (s: ClientStore) =>
        s.memo("alertsNewestFirst", "alert", () =>
          s.list<Alert>("alert").sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)),
        ),
      [],
    ),
  );
}

/** This member's read state (undefined: nothing read yet). */
export function useAlertReads(): AlertReadsWire | undefined {
  const userId = useSession().viewer?.id;
  return useTypeValue(
    "alert-reads",
    useCallback((s: ClientStore) => (userId ? s.get<AlertReadsWire>("alert-reads", userId) : undefined), [userId]),
  );
}

export function useUnreadCount(): number {
  const alerts = useAlerts();
  const reads = useAlertReads();
  let unread = 0;
  for (const alert of alerts) if (!isRead(alert, reads)) unread++;
  return unread;
}

/** Place edits through sync mutators: optimistic, and kept while offline. */
export function usePlaceMutations() {
  const sync = useSync();
  return {
    create: async (input: CreatePlaceArgs) => sync?.client.mutate("createPlace", input),
    update: async (input: UpdatePlaceArgs) => sync?.client.mutate("updatePlace", input),
    remove: async (id: string) => sync?.client.mutate("deletePlace", { id }),
  };
}
