import type { ReactNode } from "react";

/**
 * What an empty vehicle list means, in both lists (the Vehicles page, the map's panel): still
 * loading, nothing matching the filter, or no vehicle yet (`empty`, each list's own invitation).
 */
export function VehicleListNote({ known, total, shown, query, empty }: { known: boolean; total: number; shown: number; query: string; empty: ReactNode }) {
  if (!known) return <p className="muted empty">Loading vehicles…</p>;
  if (total === 0) return <p className="muted empty">{empty}</p>;
  if (shown === 0) return <p className="muted empty">No vehicle matches “{query}”.</p>;
  return null;
}
