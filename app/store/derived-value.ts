import type { ClientStore, EntityType } from "./client-store";

/**
 * Types that change many times a second in a moving fleet: a value derived from them is worked out
 * again at most once a minute after they changed (an odometer or a trip moves a due date or
 * today's list slowly), so 20,000 schedules are not re-evaluated on every position.
 */
const FAST_TYPES = new Set<EntityType>(["telemetry", "event"]);
const FAST_REFRESH_MS = 60_000;
/** A value is worked out again this often even when nothing changed: a due date passes with the clock. */
const CLOCK_REFRESH_MS = 10 * 60_000;

/**
 * Derived values are cached per store, not per component: the navigation's count (always
 * mounted) and My actions work out the same lists, so opening the page finds them ready instead
 * of evaluating 20,000 schedules again on its first render (issue 32's < 300 ms first screen).
 */
interface Derived {
  slow: string;
  fast: string;
  at: number;
  value: unknown;
}
const storeCaches = new WeakMap<ClientStore, Map<string, Derived>>();

const stampOf = (store: ClientStore, types: readonly EntityType[], fast: boolean) =>
  types
    .filter((t) => FAST_TYPES.has(t) === fast)
    .map((t) => store.version(t))
    .join(",");

/** The value `compute` derives from `types` (cached under `key`), worked out again only when they changed. */
export function derivedValue<T>(
  store: ClientStore,
  types: readonly EntityType[],
  key: string,
  compute: (store: ClientStore) => T,
): T {
  let cache = storeCaches.get(store);
  if (!cache) storeCaches.set(store, (cache = new Map()));
  const now = Date.now();
  const slow = stampOf(store, types, false);
  const fast = stampOf(store, types, true);
  const cached = cache.get(key);
  if (
    cached &&
    cached.slow === slow &&
    (cached.fast === fast || now - cached.at < FAST_REFRESH_MS) &&
    now - cached.at < CLOCK_REFRESH_MS
  )
    return cached.value as T;
  const value = compute(store);
  cache.set(key, { slow, fast, at: now, value });
  return value;
}
