import { ALERT_PREFIX, ALERT_RULE_PREFIX } from "../../shared/alerts/alert-rules";
import { ALERT_READS_PREFIX } from "../../shared/alerts/alerts";
import { DRIVER_PREFIX } from "../../shared/fleet/driver";
import { PLACE_PREFIX } from "../../shared/places/places";
import { ISSUE_COMMENT_PREFIX, ISSUE_PREFIX, issueIdOfKeyPart, issueKey } from "../../shared/maintenance/issues";
import {
  INSPECTION_FORM_PREFIX,
  INSPECTION_PREFIX,
  SERVICE_ENTRY_PREFIX,
  SERVICE_SCHEDULE_PREFIX,
} from "../../shared/sync/maintenance-sync";
import { markStartup } from "../lib/startup-marks";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { FUEL_ENTRY_PREFIX, fuelEntryIdOfKeyPart, fuelEntryKey } from "../../shared/costs/fuel";
import { EXPENSE_PREFIX } from "../../shared/costs/expenses";
import { RENEWAL_PREFIX } from "../../shared/costs/renewals";
import { JOB_PREFIX, jobKey, unpackJobId } from "../../shared/jobs/jobs";
import { TELEMETRY_PREFIX } from "../../shared/fleet/telemetry";
import {
  PART_PREFIX,
  VENDOR_PREFIX,
  WORK_ORDER_LINE_PREFIX,
  WORK_ORDER_PREFIX,
} from "../../shared/maintenance/work-orders";
import { packId, unpackId } from "../../shared/sync/wire";
import { VEHICLE_PREFIX, vehicleKey } from "../../shared/fleet/vehicle";
import { EVENT_PREFIX, vehicleEventKey } from "../../shared/fleet/vehicle-event";

/**
 * The client store of docs/product.md section 3: a loading flag (starts true), a hydrated flag, an object
 * pool keyed by Replicache key ("vehicle/{id}", "telemetry/{vehicleId}",
 * "event/{vehicleId}/{eventId}"), and a graph from each object type to its ids. It is fed with
 * Replicache's change lists through `apply`, the one entry point of diffs into the store (add
 * stores the object and registers its id under its type, del removes it, change replaces it).
 *
 * Work is proportional to what changed, so 10,000 vehicles reporting stay cheap: subscribers
 * choose what they hear about (a type, one key, one vehicle's events, or the status flags) and
 * get only those changes; the vehicles sorted by name are kept sorted by moving the changed ones
 * (binary search), not by sorting the fleet again; a vehicle's events are indexed by vehicle.
 */
export type EntityType =
  | "vehicle"
  | "telemetry"
  | "event"
  | "driver"
  | PlacesAlertsType
  | IssuesType
  | MaintenanceType
  | CostsType
  | "job"
  | WorkOrdersType;
/**
 * Work orders, parts and vendors (docs/decisions/0087): ids packed in their keys; a line's id is
 * its key's `{order}/{line}` as packed (read by prefix, never by id).
 */
type WorkOrdersType = "work-order" | "work-order-line" | "part" | "vendor";
const PACKED_TYPES: ReadonlySet<EntityType> = new Set(["work-order", "part", "vendor"]);
/** Fill-ups (docs/decisions/0045), expenses and renewals (docs/decisions/0049). */
type CostsType = "fuel-entry" | "expense" | "renewal";
/** Service and inspections (docs/decisions/0033). */
type MaintenanceType = "service-schedule" | "service-entry" | "inspection-form" | "inspection";
/** Issues and their comments (docs/decisions/0030): comment ids are `{issueId}/{commentId}`. */
type IssuesType = "issue" | "issue-comment";
/** Places and alerts (docs/decisions/0019): a tab of an older build ignores these keys. */
type PlacesAlertsType = "place" | "alert-rule" | "alert" | "alert-reads";
export interface StoreChange {
  op: "add" | "del" | "change";
  key: string;
  newValue?: unknown;
}
type Listener = (changes: readonly StoreChange[]) => void;

/** Each type's Replicache key prefix, from shared/'s key helpers (the one place keys are spelled). */
const PREFIXES: Record<EntityType, string> = {
  vehicle: VEHICLE_PREFIX,
  telemetry: TELEMETRY_PREFIX,
  event: EVENT_PREFIX,
  driver: DRIVER_PREFIX,
  place: PLACE_PREFIX,
  "alert-rule": ALERT_RULE_PREFIX,
  alert: ALERT_PREFIX,
  "alert-reads": ALERT_READS_PREFIX,
  issue: ISSUE_PREFIX,
  "issue-comment": ISSUE_COMMENT_PREFIX,
  "service-schedule": SERVICE_SCHEDULE_PREFIX,
  "service-entry": SERVICE_ENTRY_PREFIX,
  "inspection-form": INSPECTION_FORM_PREFIX,
  inspection: INSPECTION_PREFIX,
  "fuel-entry": FUEL_ENTRY_PREFIX,
  expense: EXPENSE_PREFIX,
  renewal: RENEWAL_PREFIX,
  // Jobs and routes (issue 43, docs/decisions/0052): ids packed in the key, as issues'.
  job: JOB_PREFIX,
  "work-order": WORK_ORDER_PREFIX,
  "work-order-line": WORK_ORDER_LINE_PREFIX,
  part: PART_PREFIX,
  vendor: VENDOR_PREFIX,
};
const TYPES = Object.keys(PREFIXES) as EntityType[];
const perType = <T>(make: () => T) => Object.fromEntries(TYPES.map((t) => [t, make()])) as Record<EntityType, T>;

/** The key of an object of a type: "vehicle/{id}", "telemetry/{vehicleId}", "event/{vehicleId}/{eventId}". */
function keyOf(type: EntityType, id: string): string {
  // An issue's key holds its id packed (docs/decisions/0034).
  if (type === "issue") return issueKey(id);
  // Fill-ups' and jobs' keys hold their ids packed too (docs/decisions/0052, 0061).
  if (type === "fuel-entry") return fuelEntryKey(id);
  if (PACKED_TYPES.has(type)) return PREFIXES[type] + packId(id);
  return type === "job" ? jobKey(id) : PREFIXES[type] + id;
}

/** A key's type and id; null for a prefix this build does not know (a newer server's entity: ignored). */
export function typeOfKey(key: string): { type: EntityType; id: string } | null {
  const type = TYPES.find((t) => key.startsWith(PREFIXES[t]));
  if (!type) return null;
  const rest = key.slice(PREFIXES[type].length);
  if (type === "issue") return { type, id: issueIdOfKeyPart(rest) };
  if (type === "fuel-entry") return { type, id: fuelEntryIdOfKeyPart(rest) };
  if (PACKED_TYPES.has(type)) return { type, id: unpackId(rest) };
  return { type, id: type === "job" ? unpackJobId(rest) : rest };
}

/** The group a vehicle's events are heard under (see groupOfKey). */
export function eventGroup(vehicleId: string): string {
  return EVENT_PREFIX + vehicleId;
}

/**
 * What a per-object subscriber listens to: the key itself, except events, which are heard per
 * vehicle ("event/{vehicleId}"), since a screen shows a vehicle's events together.
 */
export function groupOfKey(key: string): string {
  if (!key.startsWith(EVENT_PREFIX)) return key;
  const slash = key.indexOf("/", EVENT_PREFIX.length);
  return slash < 0 ? key : key.slice(0, slash);
}

interface Named {
  id: string;
  name: string;
}
const collator = new Intl.Collator(undefined, { numeric: true });
/** By name as people read numbers ("Vehicle 2" before "Vehicle 10"), then by id so the order is total. */
export function compareByName(a: Named, b: Named): number {
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Index where `item` is (or would be inserted) in `sorted`. */
function searchSorted<T>(sorted: readonly T[], item: T, compare: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class ClientStore {
  loading = true;
  hydrated = false;
  /**
   * Whether this session's first sync with the server has ended (or failed, e.g. offline). Until
   * then an empty store may only not have heard from the server yet: no "empty fleet" flash.
   */
  pulled = false;
  private readonly pool = new Map<string, unknown>();
  private readonly graph: Record<EntityType, Set<string>> = perType(() => new Set<string>());
  /** Event ids per vehicle id. */
  private readonly eventsByVehicle = new Map<string, Set<string>>();
  private readonly listeners = new Set<Listener>();
  private readonly typeListeners: Record<EntityType, Set<Listener>> = perType(() => new Set<Listener>());
  private readonly groupListeners = new Map<string, Set<Listener>>();
  private readonly statusListeners = new Set<() => void>();
  /** Bumped per type on every change, so derived lists are rebuilt only when their type changed. */
  private readonly versions: Record<EntityType, number> = perType(() => 0);
  private readonly groupVersions = new Map<string, number>();
  private readonly derived = new Map<string, { version: number; value: unknown }>();
  private byName: { id: string; name: string }[] = [];
  /** How many vehicles the last apply re-positioned in the sorted list, and whether it sorted all (tests). */
  lastSortWork = { moved: 0, fullSort: false };

  /**
   * The one entry point of diffs into the store, and the one place synced values enter the app:
   * from the compact form Replicache stores (docs/decisions/0013) to what screens and subscribers read.
   */
  apply(stored: readonly StoreChange[]) {
    const changes = stored.map((c) => (c.op === "del" ? c : { ...c, newValue: decodeSyncedValue(c.key, c.newValue) }));
    const touchedTypes = new Set<EntityType>();
    /** Per changed vehicle key, the object it had before this batch (undefined when new). */
    const vehicleBefore = new Map<string, unknown>();
    for (const change of changes) {
      const parsed = typeOfKey(change.key);
      if (!parsed) continue;
      const previous = this.pool.get(change.key);
      if (change.op === "del") {
        this.pool.delete(change.key);
        this.graph[parsed.type].delete(parsed.id);
      } else {
        this.pool.set(change.key, change.newValue);
        this.graph[parsed.type].add(parsed.id);
      }
      if (parsed.type === "event") this.indexEvent(parsed.id, change.op === "del");
      if (parsed.type === "vehicle" && !vehicleBefore.has(change.key)) vehicleBefore.set(change.key, previous);
      this.versions[parsed.type]++;
      touchedTypes.add(parsed.type);
      const group = groupOfKey(change.key);
      this.groupVersions.set(group, (this.groupVersions.get(group) ?? 0) + 1);
    }
    if (vehicleBefore.size) this.resortVehicles(vehicleBefore);
    if (!this.hydrated) markStartup("store opened");
    if (touchedTypes.has("telemetry")) markStartup("positions in the store");
    const statusChanged = this.loading || !this.hydrated;
    this.loading = false;
    this.hydrated = true;

    for (const listener of this.listeners) listener(changes);
    for (const type of touchedTypes) {
      if (!this.typeListeners[type].size) continue;
      const ofType = changes.filter((c) => c.key.startsWith(PREFIXES[type]));
      for (const listener of this.typeListeners[type]) listener(ofType);
    }
    if (this.groupListeners.size) {
      const byGroup = new Map<string, StoreChange[]>();
      for (const change of changes) {
        const group = groupOfKey(change.key);
        if (!this.groupListeners.has(group)) continue;
        const list = byGroup.get(group);
        if (list) list.push(change);
        else byGroup.set(group, [change]);
      }
      for (const [group, list] of byGroup) for (const listener of this.groupListeners.get(group) ?? []) listener(list);
    }
    if (statusChanged) for (const listener of this.statusListeners) listener();
  }

  markPulled() {
    if (this.pulled) return;
    this.pulled = true;
    for (const listener of this.listeners) listener([]);
    for (const listener of this.statusListeners) listener();
  }

  get<T>(type: EntityType, id: string): T | undefined {
    return this.pool.get(keyOf(type, id)) as T | undefined;
  }

  ids(type: EntityType): readonly string[] {
    return [...this.graph[type]];
  }

  count(type: EntityType): number {
    return this.graph[type].size;
  }

  /** Version of a type's data; changes whenever any object of that type changes. */
  version(type: EntityType): number {
    return this.versions[type];
  }

  /** Memoises a value derived from one type until that type changes. */
  memo<T>(name: string, type: EntityType, compute: () => T): T {
    const cached = this.derived.get(name);
    if (cached && cached.version === this.versions[type]) return cached.value as T;
    const value = compute();
    this.derived.set(name, { version: this.versions[type], value });
    return value;
  }

  /** All objects of a type whose ids start with `prefix`. */
  list<T>(type: EntityType, prefix = ""): T[] {
    const out: T[] = [];
    for (const id of this.graph[type]) if (id.startsWith(prefix)) out.push(this.pool.get(keyOf(type, id)) as T);
    return out;
  }

  /** Every vehicle sorted by name (numbers in names compare as numbers); a new array only when a vehicle changed. */
  vehiclesByName<T extends Named>(): T[] {
    return this.memo("vehiclesByName", "vehicle", () => this.byName.map((v) => v as T));
  }

  /** One vehicle's events, from the per-vehicle index, newest first; the same array until they change. */
  eventsOf<T extends { startTime: number }>(vehicleId: string): T[] {
    const group = eventGroup(vehicleId);
    const version = this.groupVersions.get(group) ?? 0;
    const cached = this.derived.get(group);
    if (cached && cached.version === version) return cached.value as T[];
    const ids = this.eventsByVehicle.get(vehicleId) ?? [];
    const value = [...ids]
      .map((id) => this.pool.get(vehicleEventKey(vehicleId, id)) as T)
      .sort((a, b) => b.startTime - a.startTime);
    this.derived.set(group, { version, value });
    return value;
  }

  /** Every change (the status flags' changes come as an empty list). */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Only changes of one type, e.g. the map hears telemetry and vehicles, never events. */
  subscribeType(type: EntityType, listener: Listener): () => void {
    this.typeListeners[type].add(listener);
    return () => this.typeListeners[type].delete(listener);
  }

  /** Only changes of one key ("vehicle/{id}", "telemetry/{id}") or one vehicle's events ("event/{vehicleId}"). */
  subscribeGroup(group: string, listener: Listener): () => void {
    let set = this.groupListeners.get(group);
    if (!set) this.groupListeners.set(group, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.groupListeners.delete(group);
    };
  }

  /** Only the loading, hydrated and pulled flags. */
  subscribeStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private indexEvent(id: string, deleted: boolean) {
    const slash = id.indexOf("/");
    if (slash < 0) return;
    const vehicleId = id.slice(0, slash);
    const eventId = id.slice(slash + 1);
    let set = this.eventsByVehicle.get(vehicleId);
    if (deleted) {
      set?.delete(eventId);
      if (set && !set.size) this.eventsByVehicle.delete(vehicleId);
      return;
    }
    if (!set) this.eventsByVehicle.set(vehicleId, (set = new Set()));
    set.add(eventId);
  }

  /**
   * Keeps `byName` sorted. A few changes: each changed vehicle is taken out where it was and put
   * back where it belongs (binary search). A large batch (the first sync) is sorted once.
   */
  private resortVehicles(changes: Map<string, unknown>) {
    const list = this.byName.slice();
    if (changes.size > Math.max(64, list.length / 8)) {
      const sorted = [...this.graph.vehicle].map((id) => this.pool.get(vehicleKey(id)) as Named).sort(compareByName);
      this.byName = sorted;
      this.lastSortWork = { moved: sorted.length, fullSort: true };
      return;
    }
    for (const [key, before] of changes) {
      const previous = before as Named | undefined;
      if (previous) {
        const at = searchSorted(list, previous, compareByName);
        if (list[at] === previous) list.splice(at, 1);
      }
      const current = this.pool.get(key) as Named | undefined;
      if (current) list.splice(searchSorted(list, current, compareByName), 0, current);
    }
    this.byName = list;
    this.lastSortWork = { moved: changes.size, fullSort: false };
  }
}
