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
 * what is newer than the vehicle's latest. Here each vehicle keeps its recent fixes (those within
 * REORDER_WINDOW_MS of device time of its newest, and a little more) and a few snapshots of its
 * state among them: a snapshot is the state the fold returned at that point (states are
 * immutable, so it is a kept reference), one every SNAPSHOT_EVERY_MS of device time. A late fix
 * inside the window restores the last snapshot before it and folds the fixes after that snapshot
 * again with the late one in its place. The live position never waits: an in-order fix is folded
 * at once, as before, plus an append to its window; only a late fix costs a re-fold.
 *
 * Why snapshots and not the state before every fix: a state is about 2.5 KB of heap (the
 * modules' states are new objects at every fix), so one per fix kept 31 KB per vehicle at a fix
 * every 5 s and 147 KB at one a second (bench/reorder.bench.ts); two snapshots and the fixes
 * keep a few KB, for a re-fold of at most about two windows of fixes.
 *
 * What a re-fold writes replaces what the superseded folds wrote: D1 rows are upserts by key, and
 * what they opened (events, alerts) gets the id the superseded fold gave it, paired per event
 * type and per alert rule (`ledger`); an event no longer produced is `dropped`, an alert no
 * longer produced is written as its `void` row (it was delivered; it is withdrawn).
 */
export const REORDER_WINDOW_MS = 60_000;
/** Device time between two snapshots of a vehicle's state in its window. */
export const SNAPSHOT_EVERY_MS = 60_000;
/** Fixes kept at most (a tracker reporting faster than one a second keeps its last 64: under 60 s). */
export const REORDER_MAX_FIXES = 64;
/** A snapshot every this many fixes too, so a fast tracker's re-fold stays short. */
const SNAPSHOT_EVERY_FIXES = REORDER_MAX_FIXES / 2;

/** One fix folded, and what its fold opened. */
interface Kept {
  fix: Fix;
  named: readonly Named[];
}

/** Something a fold opened under an id: an event (`event:TYPE`) or a module's row (`FlushRow.opens`). */
interface Named {
  key: string;
  id: string;
  void?: FlushRow;
}

/** A snapshot of the vehicle's state and the fixes folded after it, oldest first. */
interface Segment {
  start: VehicleFold;
  fixes: readonly Kept[];
}

/** A vehicle's recent folds (empty after the object restarts: late fixes are then history only). */
export interface ReorderWindow {
  readonly segments: readonly Segment[];
}

export const EMPTY_WINDOW: ReorderWindow = { segments: [] };

export interface OrderedFold {
  vehicle: VehicleFold;
  outputs: FoldOutputs;
  window: ReorderWindow;
}

/** Folds one report of a vehicle (its reports in any order, duplicates taken out), keeping its window. */
export function foldInOrder(vehicle: VehicleFold, window: ReorderWindow, fix: Fix, ctx: FoldContext): OrderedFold {
  const step = foldReport(vehicle, fix, ctx);
  if (step.outputs.folded)
    return { ...step, window: appended(window, vehicle, { fix, named: namedBy(step.outputs) }, step.vehicle) };
  if (step.outputs.outcome !== "late") return { ...step, window };
  const from = refoldFrom(vehicle, window, fix);
  if (from < 0) return { ...step, window };
  return refold(window, from, fix, ctx, step.outputs);
}

const timeOf = (state: VehicleFold) => state.latest?.recordedAt ?? -Infinity;

/** The device time of the newest fix the window holds (its last snapshot's when it has none since). */
function newestOf(window: ReorderWindow): number | undefined {
  const last = window.segments.at(-1);
  if (!last) return undefined;
  return last.fixes.at(-1)?.fix.time ?? timeOf(last.start);
}

/** The window with an in-order fold appended: a new snapshot (`after`) when the last is old, the oldest dropped once not needed. */
function appended(window: ReorderWindow, before: VehicleFold, kept: Kept, after: VehicleFold): ReorderWindow {
  const last = window.segments.at(-1);
  // A window that does not end where the vehicle was (none yet) starts here.
  if (!last || newestOf(window) !== timeOf(before)) return { segments: [{ start: before, fixes: [kept] }] };
  const segments = [...window.segments.slice(0, -1), { start: last.start, fixes: [...last.fixes, kept] }];
  if (kept.fix.time - timeOf(last.start) >= SNAPSHOT_EVERY_MS || last.fixes.length + 1 >= SNAPSHOT_EVERY_FIXES)
    segments.push({ start: after, fixes: [] });
  return trimmed(segments, kept.fix.time);
}

/** Without the oldest snapshots a late fix can no longer need (the next one is older than the window), or past the count. */
function trimmed(segments: Segment[], newest: number): ReorderWindow {
  let total = segments.reduce((n, s) => n + s.fixes.length, 0);
  let from = 0;
  while (
    from < segments.length - 1 &&
    (timeOf(segments[from + 1]!.start) < newest - REORDER_WINDOW_MS || total > REORDER_MAX_FIXES)
  ) {
    total -= segments[from]!.fixes.length;
    from++;
  }
  return { segments: from ? segments.slice(from) : segments };
}

/** The segment whose snapshot a late fix is re-folded from, or -1 when it cannot be folded (too old, a duplicate, no window). */
function refoldFrom(vehicle: VehicleFold, window: ReorderWindow, fix: Fix): number {
  // The window must end at the vehicle's state (it does unless something else changed the vehicle).
  if (newestOf(window) !== timeOf(vehicle)) return -1;
  if (timeOf(vehicle) - fix.time > REORDER_WINDOW_MS) return -1;
  const { segments } = window;
  if (segments.some((s) => s.fixes.some((k) => k.fix.time === fix.time))) return -1;
  // The last snapshot older than the fix; none: older than the window's first, its place is not kept.
  return segments.findLastIndex((s) => timeOf(s.start) < fix.time);
}

function refold(window: ReorderWindow, from: number, late: Fix, ctx: FoldContext, own: FoldOutputs): OrderedFold {
  const start = window.segments[from]!.start;
  const superseded = window.segments.slice(from).flatMap((s) => s.fixes);
  const fixes = [...superseded.map((k) => k.fix), late].sort((a, b) => a.time - b.time);
  // Names do not change what a fold decides: a first pass learns which of the superseded names
  // the re-fold gives again as they are, so the second never hands one of those to another event.
  const probe = ledger(superseded, null);
  if (superseded.some((k) => k.named.length)) foldAll(start, fixes, ctx, probe);
  const replay = ledger(superseded, probe.fresh);
  const again = foldAll(start, fixes, ctx, replay);
  // The window again as in-order folds would have left it (its snapshots now the re-fold's states).
  let next: ReorderWindow = { segments: [...window.segments.slice(0, from), { start, fixes: [] }] };
  again.kept.forEach((kept, i) => (next = appended(next, i ? again.after[i - 1]! : start, kept, again.after[i]!)));
  return {
    vehicle: again.vehicle,
    window: next,
    outputs: merged(own, again.steps, replay),
  };
}

function foldAll(start: VehicleFold, fixes: Fix[], ctx: FoldContext, replay: Ledger) {
  const fresh = ctx.newId ?? eventIdOf(start.vehicleId);
  const again: FoldContext = { ...ctx, replay, newId: (t, type) => replay.reuse(`event:${type}`, fresh(t, type)) };
  let vehicle = start;
  const kept: Kept[] = [];
  const after: VehicleFold[] = [];
  const steps: FoldOutputs[] = [];
  for (const fix of fixes) {
    const step = foldReport(vehicle, fix, again);
    // Each was folded before; only clock bounds that moved since could refuse one now.
    if (!step.outputs.folded) continue;
    kept.push({ fix, named: namedBy(step.outputs) });
    after.push(step.vehicle);
    steps.push(step.outputs);
    vehicle = step.vehicle;
  }
  return { vehicle, kept, after, steps };
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
function ledger(superseded: readonly Kept[], keep: ReadonlySet<string> | null): Ledger {
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
