import type { WorkspaceSyncState } from "./changes";
import type { ClientCookie } from "./cookie";

/**
 * The decisions of a pull that need no database (docs/decisions/0003-sync.md), apart from the
 * reads in worker/sync/pull.ts so they are unit-tested in Node (worker/sync/pull-rules.test.ts).
 */

export type ResetReason = "first" | "foreign" | "restored" | "too-old";

/** Why a client's cookie cannot be diffed from (the answer is then a full reset), or null when it can. */
export function resetReason(client: ClientCookie, ws: WorkspaceSyncState): ResetReason | null {
  if (client.kind === "none") return "first";
  if (client.kind === "foreign") return "foreign";
  const { version, epoch } = client.cookie;
  // Another epoch (rotated after a restore), or a version this workspace has not reached (restored
  // to an earlier point): the client holds changes this database never made.
  if (epoch !== ws.syncEpoch || version > ws.version) return "restored";
  // Deletions at or below the floor may have been collected: the client could miss a `del`.
  if (version < ws.tombstoneFloor) return "too-old";
  return null;
}

/**
 * What an incremental answer says about a row changed since the client's cookie `since`: `put`
 * when it is live; `del` when it was deleted and the client may hold it; nothing when it was
 * created and deleted since the cookie (never the client's). A row without `createdVersion`
 * (written before that was recorded) is deleted to be safe.
 */
export function incrementalOp(
  row: { deleted: boolean; createdVersion: number | null },
  since: number,
): "put" | "del" | null {
  if (!row.deleted) return "put";
  return row.createdVersion === null || row.createdVersion <= since ? "del" : null;
}
