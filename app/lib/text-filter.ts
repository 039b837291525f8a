/**
 * The rule of every filter box (vehicles, team): the query, trimmed, found in any of the texts
 * regardless of case; an empty query matches everything.
 */
export function matchesText(texts: readonly (string | null | undefined)[], query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return texts.some((text) => text?.toLowerCase().includes(q));
}
