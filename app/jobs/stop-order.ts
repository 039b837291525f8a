/**
 * The order of a vehicle's stops as the dispatcher changes it: by dragging one onto another's
 * place, or with "Move up" / "Move down" (keyboard and phones). Pure, so both ways give the same
 * order and it is tested in Node.
 */

/** The ids with the one at `from` taken out and put at `to` (both indexes in the list as it was). */
export function moveTo<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= items.length) return [...items];
  const clamped = Math.max(0, Math.min(items.length - 1, to));
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(clamped, 0, moved as T);
  return next;
}

/** One step earlier (-1) or later (+1); an end stop that cannot move keeps the list as it was. */
export function moveBy<T>(items: readonly T[], index: number, step: -1 | 1): T[] {
  const to = index + step;
  if (to < 0 || to >= items.length) return [...items];
  return moveTo(items, index, to);
}

/** Whether `next` leaves each of the `fixed` ids (finished stops, which keep their place) where it was in `items`. */
export function keepsFixed(items: readonly string[], next: readonly string[], fixed: ReadonlySet<string>): boolean {
  return next.every((id, i) => !fixed.has(id) || items[i] === id);
}

/** Whether two orders differ (a drop back on its own place changes nothing, and sends nothing). */
export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
