/**
 * The CPU copy of the beacons the GPU draws: one slot per vehicle in a typed array, and which
 * slots changed since the last upload, so a report rewrites 24 bytes of the GPU buffer instead of
 * the fleet. Kept in float64 (absolute Web Mercator, milliseconds) and mirrored in float32
 * relative to an origin and an epoch near "now" (see originTooFar), which is what is uploaded.
 * A lost WebGL context is recovered by uploading the whole float32 copy again.
 */
import { glideAt } from "./beacon-math";
import { GLIDE_MS } from "./geometry";

/** fromX, fromY, toX, toY, glide start (s since the epoch), state (colour + SELECTED). */
export const FLOATS_PER_SLOT = 6;
export const BEACON_STATES = { moving: 0, parked: 1, inactive: 2 } as const;
export type BeaconState = keyof typeof BEACON_STATES;
export const SELECTED = 4;
/** Start of a glide that ended long ago: the beacon rests at its destination. */
const AT_REST = -1e9;

export class BeaconSlots {
  private readonly index = new Map<string, number>();
  private ids: string[] = [];
  private abs = new Float64Array(0);
  /** What the GPU buffer holds (or will once uploaded). */
  gpu = new Float32Array(0);
  origin: [number, number] = [0.5, 0.5];
  epoch = 0;
  private dirty = new Set<number>();
  /** Everything must be uploaded again: the buffer grew, was lost, or the origin/epoch moved. */
  allDirty = true;
  private selected: string | null = null;

  get size(): number {
    return this.ids.length;
  }

  get capacity(): number {
    return this.abs.length / FLOATS_PER_SLOT;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  slotOf(id: string): number | undefined {
    return this.index.get(id);
  }

  idAt(slot: number): string {
    return this.ids[slot]!;
  }

  /**
   * Places a vehicle at (x, y). With `animate`, it glides there over 8 s from wherever it is
   * drawn at `now` (mid-glide included); otherwise (first sight) it appears there.
   */
  place(id: string, x: number, y: number, state: BeaconState, now: number, animate: boolean) {
    let slot = this.index.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      this.grow(slot + 1);
      this.ids.push(id);
      this.index.set(id, slot);
      animate = false;
    }
    const o = slot * FLOATS_PER_SLOT;
    const a = this.abs;
    const [fx, fy] = animate ? this.positionAt(slot, now) : [x, y];
    const moves = fx !== x || fy !== y;
    a[o] = fx;
    a[o + 1] = fy;
    a[o + 2] = x;
    a[o + 3] = y;
    a[o + 4] = moves ? now : AT_REST;
    a[o + 5] = BEACON_STATES[state] + (id === this.selected ? SELECTED : 0);
    this.mirror(slot);
  }

  /** A colour change only (beacon status, ignition); the glide goes on. */
  setState(id: string, state: BeaconState) {
    const slot = this.index.get(id);
    if (slot === undefined) return;
    const value = BEACON_STATES[state] + (id === this.selected ? SELECTED : 0);
    if (this.abs[slot * FLOATS_PER_SLOT + 5] === value) return;
    this.abs[slot * FLOATS_PER_SLOT + 5] = value;
    this.mirror(slot);
  }

  select(id: string | null) {
    if (id === this.selected) return;
    const previous = this.selected;
    this.selected = id;
    for (const each of [previous, id]) {
      const slot = each === null ? undefined : this.index.get(each);
      if (slot === undefined) continue;
      const o = slot * FLOATS_PER_SLOT + 5;
      this.abs[o] = (this.abs[o]! % SELECTED) + (each === id ? SELECTED : 0);
      this.mirror(slot);
    }
  }

  /** Removes a vehicle; the last slot moves into its place (two slots rewritten, no gaps drawn). */
  remove(id: string) {
    const slot = this.index.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    this.index.delete(id);
    if (slot !== last) {
      const moved = this.ids[last]!;
      this.ids[slot] = moved;
      this.index.set(moved, slot);
      this.abs.copyWithin(slot * FLOATS_PER_SLOT, last * FLOATS_PER_SLOT, (last + 1) * FLOATS_PER_SLOT);
      this.mirror(slot);
    }
    this.ids.pop();
    this.dirty.delete(last);
  }

  /** Where the beacon in `slot` is drawn at `now` (Web Mercator, float64). */
  positionAt(slot: number, now: number): [number, number] {
    const o = slot * FLOATS_PER_SLOT;
    const a = this.abs;
    return glideAt(a[o]!, a[o + 1]!, a[o + 2]!, a[o + 3]!, a[o + 4]!, now);
  }

  /** Destination of the beacon in `slot` (Web Mercator). */
  destination(slot: number): [number, number] {
    const o = slot * FLOATS_PER_SLOT;
    return [this.abs[o + 2]!, this.abs[o + 3]!];
  }

  /** When the glide of the beacon in `slot` ends (in the past for one at rest). */
  glideEndOf(slot: number): number {
    return this.abs[slot * FLOATS_PER_SLOT + 4]! + GLIDE_MS;
  }

  /** Destination x, y without allocating (clustering reads every slot). */
  toX(slot: number): number {
    return this.abs[slot * FLOATS_PER_SLOT + 2]!;
  }

  toY(slot: number): number {
    return this.abs[slot * FLOATS_PER_SLOT + 3]!;
  }

  stateAt(slot: number): number {
    return this.abs[slot * FLOATS_PER_SLOT + 5]!;
  }

  /** Moves the float32 copy's origin and epoch (every slot is rewritten and uploaded). */
  rebase(origin: [number, number], epoch: number) {
    this.origin = origin;
    this.epoch = epoch;
    for (let slot = 0; slot < this.ids.length; slot++) this.mirror(slot);
    this.allDirty = true;
  }

  /**
   * The slot ranges to upload since the last call, as [first slot, slot count] runs, or "all"
   * when the whole buffer must be (re)created. Clears the record.
   */
  takeDirty(): "all" | [number, number][] {
    if (this.allDirty) {
      this.allDirty = false;
      this.dirty.clear();
      return "all";
    }
    const slots = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    const runs: [number, number][] = [];
    for (const slot of slots) {
      const run = runs.at(-1);
      if (run && run[0] + run[1] === slot) run[1]++;
      else runs.push([slot, 1]);
    }
    return runs;
  }

  private mirror(slot: number) {
    const o = slot * FLOATS_PER_SLOT;
    const a = this.abs;
    const g = this.gpu;
    g[o] = a[o]! - this.origin[0];
    g[o + 1] = a[o + 1]! - this.origin[1];
    g[o + 2] = a[o + 2]! - this.origin[0];
    g[o + 3] = a[o + 3]! - this.origin[1];
    g[o + 4] = a[o + 4] === AT_REST ? AT_REST : (a[o + 4]! - this.epoch) / 1000;
    g[o + 5] = a[o + 5]!;
    if (!this.allDirty) this.dirty.add(slot);
  }

  private grow(slots: number) {
    if (slots <= this.capacity) return;
    const capacity = Math.max(64, this.capacity * 2, slots);
    const abs = new Float64Array(capacity * FLOATS_PER_SLOT);
    abs.set(this.abs);
    const gpu = new Float32Array(capacity * FLOATS_PER_SLOT);
    gpu.set(this.gpu);
    this.abs = abs;
    this.gpu = gpu;
    this.allDirty = true;
  }
}
