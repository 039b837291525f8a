import { decodeSyncedValue } from "../../shared/synced-value";

/**
 * The client store of SPEC.md section 3: a loading flag (starts true), a hydrated flag, an object
 * pool keyed by Replicache key ("vehicle/{id}", "telemetry/{vehicleId}",
 * "event/{vehicleId}/{eventId}"), and a graph from each object type to its ids. It is fed with
 * Replicache's change lists (add stores the object and registers its id under its type, del
 * removes it, change replaces it) and tells subscribers which keys changed, so a map of 10,000
 * vehicles can move markers without re-rendering React.
 */
export type EntityType = "vehicle" | "telemetry" | "event";
export interface StoreChange {
  op: "add" | "del" | "change";
  key: string;
  newValue?: unknown;
}
type Listener = (changes: readonly StoreChange[]) => void;

export function typeOfKey(key: string): { type: EntityType; id: string } | null {
  const slash = key.indexOf("/");
  const type = key.slice(0, slash);
  if (type !== "vehicle" && type !== "telemetry" && type !== "event") return null;
  return { type, id: key.slice(slash + 1) };
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
  private readonly graph: Record<EntityType, Set<string>> = { vehicle: new Set(), telemetry: new Set(), event: new Set() };
  private readonly listeners = new Set<Listener>();
  /** Bumped per type on every change, so derived lists are rebuilt only when their type changed. */
  private readonly versions: Record<EntityType, number> = { vehicle: 0, telemetry: 0, event: 0 };
  private readonly derived = new Map<string, { version: number; value: unknown }>();

  apply(stored: readonly StoreChange[]) {
    // The one place synced values enter the app: from the compact form Replicache stores
    // (docs/decisions/0013) to what screens and subscribers read.
    const changes = stored.map((c) => (c.op === "del" ? c : { ...c, newValue: decodeSyncedValue(c.key, c.newValue) }));
    for (const change of changes) {
      const parsed = typeOfKey(change.key);
      if (!parsed) continue;
      if (change.op === "del") {
        this.pool.delete(change.key);
        this.graph[parsed.type].delete(parsed.id);
      } else {
        this.pool.set(change.key, change.newValue);
        this.graph[parsed.type].add(parsed.id);
      }
      this.versions[parsed.type]++;
    }
    this.loading = false;
    this.hydrated = true;
    for (const listener of this.listeners) listener(changes);
  }

  markPulled() {
    if (this.pulled) return;
    this.pulled = true;
    for (const listener of this.listeners) listener([]);
  }

  get<T>(type: EntityType, id: string): T | undefined {
    return this.pool.get(`${type}/${id}`) as T | undefined;
  }

  ids(type: EntityType): readonly string[] {
    return [...this.graph[type]];
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

  /** All objects of a type whose ids start with `prefix` (events of one vehicle: "{vehicleId}/"). */
  list<T>(type: EntityType, prefix = ""): T[] {
    const out: T[] = [];
    for (const id of this.graph[type]) if (id.startsWith(prefix)) out.push(this.pool.get(`${type}/${id}`) as T);
    return out;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

