import {
  foldReport,
  type Fix,
  type FlushRow,
  type FoldContext,
  type FoldOutputs,
  type Replay,
  type VehicleFold,
} from "./fold";
import { eventIdOf, type EventUpsert } from "./motion";

/**
 * Late reports folded in device-time order (docs/decisions/0037). Two edge locations, a retried
 * request or a tracker's buffer deliver a vehicle's reports out of order; `foldReport` folds only
 * what is newer than the vehicle's latest. Here each vehicle keeps its last fixes (at most
 * REORDER_WINDOW_MS of device time and REORDER_MAX_FIXES of them) with the state before each: the
 * fold's states are immutable, so keeping them is keeping references. A late fix inside the
 * window restores the state before the first newer fix, is folded, and the newer fixes are
 * folded again after it. The live position never waits: an in-order fix is folded at once, as
 * before; only a late one costs a re-fold of the fixes after it.
 *
 * What a re-fold writes replaces what the superseded folds wrote: D1 rows are upserts by key, and
 * what they opened (events, alerts) gets the id the superseded fold gave it, paired in order per
 * event type and per alert rule (`Replay`); an event no longer produced is `dropped`, an alert
 * no longer produced is written as its `void` row (it was delivered; it stays, ended).
 */
export const REORDER_WINDOW_MS = 60_000;
/** A tracker reporting every second keeps 60 s; one reporting faster keeps only its last 64 fixes. */
export const REORDER_MAX_FIXES = 64;

/** One fix folded, with the state before it and what it opened. */
export interface Folded {
  fix: Fix;
  before: VehicleFold;
  named: readonly Named[];
}

/** Something a fold opened under an id: an event (`event:TYPE`) or a module's row (`FlushRow.opens`). */
interface Named {
  key: string;
  id: string;
  void?: FlushRow;
}

/** A vehicle's recent folds, oldest first (empty after the object restarts: late fixes are then history only). */
export type ReorderWindow = readonly Folded[];

export interface OrderedFold {
  vehicle: VehicleFold;
  outputs: FoldOutputs;
  window: ReorderWindow;
}

/** Folds one report of a vehicle (its reports in any order, duplicates taken out), keeping its window. */
export function foldInOrder(vehicle: VehicleFold, window: ReorderWindow, fix: Fix, ctx: FoldContext): OrderedFold {
  const step = foldReport(vehicle, fix, ctx);
  if (step.outputs.folded)
    return { ...step, window: kept(window, { fix, before: vehicle, named: namedBy(step.outputs) }) };
  if (step.outputs.outcome !== "late") return { ...step, window };
  const from = refoldFrom(vehicle, window, fix);
  if (from < 0) return { ...step, window };
  return refold(window, from, fix, ctx, step.outputs);
}

/** Where a late fix goes in the window, or -1 when it cannot be folded (too old, a duplicate, no window). */
function refoldFrom(vehicle: VehicleFold, window: ReorderWindow, fix: Fix): number {
  const newest = window.at(-1);
  // The window must end at the vehicle's state (it does unless something else changed the vehicle).
  if (!newest || newest.fix.time !== vehicle.latest?.recordedAt) return -1;
  if (newest.fix.time - fix.time > REORDER_WINDOW_MS) return -1;
  const at = window.findIndex((f) => f.fix.time >= fix.time);
  if (at < 0 || window[at]!.fix.time === fix.time) return -1;
  // Older than the fix before the window: its place in the order is not kept any more.
  const before = window[at]!.before.latest;
  return before && before.recordedAt >= fix.time ? -1 : at;
}

function refold(window: ReorderWindow, from: number, late: Fix, ctx: FoldContext, own: FoldOutputs): OrderedFold {
  const superseded = window.slice(from);
  const fixes = [late, ...superseded.map((f) => f.fix)];
  // Names do not change what a fold decides: a first pass learns which of the superseded names
  // the re-fold gives again as they are, so the second never hands one of those to another event.
  const probe = ledger(superseded, null);
  foldAll(superseded[0]!.before, fixes, ctx, probe);
  const replay = ledger(superseded, probe.fresh);
  const again = foldAll(superseded[0]!.before, fixes, ctx, replay);
  return {
    vehicle: again.vehicle,
    window: [...window.slice(0, from), ...again.folded].slice(-REORDER_MAX_FIXES),
    outputs: merged(own, again.steps, replay),
  };
}

function foldAll(start: VehicleFold, fixes: Fix[], ctx: FoldContext, replay: Ledger) {
  const fresh = ctx.newId ?? eventIdOf(start.vehicleId);
  const again: FoldContext = { ...ctx, replay, newId: (t, type) => replay.reuse(`event:${type}`, fresh(t, type)) };
  let vehicle = start;
  const folded: Folded[] = [];
  const steps: FoldOutputs[] = [];
  for (const fix of fixes) {
    const step = foldReport(vehicle, fix, again);
    // Each was folded before; only clock bounds that moved since could refuse one now.
    if (!step.outputs.folded) continue;
    folded.push({ fix, before: vehicle, named: namedBy(step.outputs) });
    steps.push(step.outputs);
    vehicle = step.vehicle;
  }
  return { vehicle, folded, steps };
}

/** The re-fold's outputs as one: the last version of each event, rows in order (a later row of a key wins). */
function merged(own: FoldOutputs, steps: FoldOutputs[], replay: Ledger): FoldOutputs {
  const events = new Map<string, EventUpsert>();
  for (const e of steps.flatMap((s) => s.events)) events.set(e.id, e);
  const opened = [...new Set(steps.flatMap((s) => s.opened))].filter((id) => !replay.given(id));
  const unused = replay.unused();
  return {
    ...own,
    folded: true,
    events: [...events.values()],
    opened,
    rows: [...steps.flatMap((s) => s.rows), ...unused.flatMap((n) => (n.void ? [n.void] : []))],
    dropped: unused.filter((n) => n.key.startsWith("event:")).map((n) => n.id),
  };
}

interface Ledger extends Replay {
  /** The names the re-fold would give of itself. */
  fresh: Set<string>;
  /** What the superseded folds named and the re-fold did not name again. */
  unused(): Named[];
}

/**
 * The ids the superseded folds gave, for the re-fold to give again: the same id when the re-fold
 * names the same thing the same way, else the first unused one of its key (event type, alert rule)
 * that the re-fold does not give as it is (`keep`: the probe's fresh names). Without `keep`, a
 * probe: it names freshly, records the names, and counts everything as given (delivers nothing).
 */
function ledger(superseded: ReorderWindow, keep: ReadonlySet<string> | null): Ledger {
  const named = superseded.flatMap((f) => f.named);
  const ids = new Set(named.map((n) => n.id));
  const used = new Set<string>();
  const fresh = new Set<string>();
  return {
    fresh,
    given: (id) => !keep || ids.has(id),
    reuse(key, name) {
      fresh.add(name);
      if (!keep) return name;
      const id =
        ids.has(name) && !used.has(name)
          ? name
          : named.find((n) => n.key === key && !used.has(n.id) && !keep.has(n.id))?.id;
      if (id === undefined) return name;
      used.add(id);
      return id;
    },
    unused: () => named.filter((n) => !used.has(n.id)),
  };
}

const NONE: readonly Named[] = [];

/** What one fold opened: its new events, and module rows that open something. */
function namedBy(outputs: FoldOutputs): readonly Named[] {
  if (!outputs.opened.length && !outputs.rows.some((r) => r.opens)) return NONE;
  const named: Named[] = outputs.opened.map((id) => ({
    key: `event:${outputs.events.find((e) => e.id === id)!.type}`,
    id,
  }));
  for (const r of outputs.rows)
    if (r.opens) named.push({ key: r.opens.key, id: r.opens.id, void: { table: r.table, row: r.opens.void } });
  return named;
}

/** The window with one more fold, without what fell out of it (by device time, then by count). */
function kept(window: ReorderWindow, folded: Folded): ReorderWindow {
  const all = [...window, folded];
  const oldest = folded.fix.time - REORDER_WINDOW_MS;
  let from = Math.max(0, all.length - REORDER_MAX_FIXES);
  while (from < all.length - 1 && all[from]!.fix.time < oldest) from++;
  return from ? all.slice(from) : all;
}
