import { and, eq, gt, isNull, lte, or } from "drizzle-orm";
import type { z } from "zod";
import type { PatchOperation, PullResponse, pullRequestSchema } from "../../shared/sync-protocol";
import { telemetryKey } from "../../shared/telemetry";
import { vehicleKey } from "../../shared/vehicle";
import { vehicleEventKey } from "../../shared/vehicle-event";
import type { SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { replicacheClientGroups, replicacheClients, telemetry, vehicleEvents, vehicles, workspaces } from "../db/schema";
import { claimClientGroup } from "./client-group";
import { nextCookie, readCookie, resetCookie, type ClientCookie } from "./cookie";
import { toTelemetry, toVehicle, toVehicleEvent } from "./entities";

type PullRequest = z.infer<typeof pullRequestSchema>;
type WorkspaceSession = SessionInfo & { workspaceId: string };

/**
 * Per-space version pull (docs/decisions/0003-sync.md). The cookie names the workspace version the
 * client has seen (and the sync epoch it was issued in); the answer is every row of the session's
 * workspace stamped later, `del` for rows deleted since that the client can hold, and the last
 * mutation ids of the group's clients changed since.
 *
 * A client group the server has not seen before is claimed for this session and served like any
 * other: a new group carrying a cookie is a fork (Replicache starts one whenever the app's mutators
 * or indexes change, from the snapshot of the group it forked from), not lost state.
 * A cookie the server cannot diff from gets a full reset (`clear` and everything live) with a cookie
 * ordered above the client's: one from another epoch or ahead of the workspace (a restore from
 * backup), one older than the collected tombstones, or one that is not ours.
 */
export async function pull(db: Db, session: WorkspaceSession, req: PullRequest): Promise<PullResponse> {
  const workspaceId = session.workspaceId;
  await claimClientGroup(db, session, req.clientGroupID);
  const client = readCookie(req.cookie);

  const incremental = await changesSince(db, workspaceId, req.clientGroupID, client);
  const { workspace } = incremental;
  const reason = resetReason(client, workspace);
  if (reason === null && client.kind === "ours") {
    const patch: PatchOperation[] = [];
    const add = <R extends { deleted: boolean }>(rows: R[], key: (r: R) => string, value: (r: R) => unknown) => {
      for (const row of rows) patch.push(row.deleted ? { op: "del", key: key(row) } : { op: "put", key: key(row), value: value(row) });
    };
    addAll(incremental, add);
    return {
      cookie: nextCookie(client.cookie, workspace.version, workspace.syncEpoch),
      lastMutationIDChanges: lastMutationIds(incremental.clientRows),
      patch,
    };
  }

  // Full answer. Read again from scratch (only live rows) unless this already was the full read.
  const full = client.kind !== "ours" ? incremental : await changesSince(db, workspaceId, req.clientGroupID, { kind: "none" });
  const restored = reason === "restored";
  if (restored) {
    // The client's lastMutationIDs may be above what this server remembers: say nothing about them
    // (Replicache refuses a lower one) and let this group's next pushes rebase its clients' ids.
    await db.update(replicacheClientGroups).set({ rebase: true }).where(eq(replicacheClientGroups.id, req.clientGroupID));
    console.warn(`pull: client group ${req.clientGroupID} is ahead of workspace ${workspaceId} (restored?): full reset`);
  }
  const patch: PatchOperation[] = [{ op: "clear" }];
  addAll(full, (rows, key, value) => {
    for (const row of rows) patch.push({ op: "put", key: key(row), value: value(row) });
  });
  return {
    cookie: resetCookie(client, full.workspace.version, full.workspace.syncEpoch),
    lastMutationIDChanges: restored ? {} : lastMutationIds(full.clientRows),
    patch,
  };
}

type Changes = Awaited<ReturnType<typeof changesSince>>;
type Add = <R extends { deleted: boolean }>(rows: R[], key: (r: R) => string, value: (r: R) => unknown) => void;

function addAll(changes: Changes, add: Add) {
  add(changes.vehicleRows, (r) => vehicleKey(r.id), toVehicle);
  add(changes.telemetryRows, (r) => telemetryKey(r.vehicleId), toTelemetry);
  add(changes.eventRows, (r) => vehicleEventKey(r.vehicleId, r.id), toVehicleEvent);
}

function lastMutationIds(rows: { id: string; lastMutationId: number }[]) {
  const changes: Record<string, number> = {};
  for (const c of rows) changes[c.id] = c.lastMutationId;
  return changes;
}

type WorkspaceSyncState = { version: number; syncEpoch: string; tombstoneFloor: number };

/** Why a client's cookie cannot be diffed from, or null when it can. */
function resetReason(client: ClientCookie, ws: WorkspaceSyncState): "first" | "foreign" | "restored" | "too-old" | null {
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
 * Everything of the workspace stamped after the client's cookie; D1 runs a batch as one
 * transaction, so it is a consistent snapshot. Without a usable cookie: every live row (never a
 * tombstone). With one: changed rows, and deleted ones only if created at or before the cookie
 * (the client may hold them; rows created and deleted since it pulled are none of its business).
 */
async function changesSince(db: Db, workspaceId: string, clientGroupId: string, client: ClientCookie) {
  const since = client.kind === "ours" ? client.cookie.version : -1;
  const visible = <T extends typeof vehicles | typeof telemetry | typeof vehicleEvents>(t: T) =>
    client.kind !== "ours"
      ? and(eq(t.workspaceId, workspaceId), gt(t.version, since), eq(t.deleted, false))
      : and(
          eq(t.workspaceId, workspaceId),
          gt(t.version, since),
          or(eq(t.deleted, false), isNull(t.createdVersion), lte(t.createdVersion, since)),
        );
  const [ws, vehicleRows, telemetryRows, eventRows, clientRows] = await db.batch([
    db
      .select({ version: workspaces.version, syncEpoch: workspaces.syncEpoch, tombstoneFloor: workspaces.tombstoneFloor })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId)),
    db.select().from(vehicles).where(visible(vehicles)),
    db.select().from(telemetry).where(visible(telemetry)),
    db.select().from(vehicleEvents).where(visible(vehicleEvents)),
    db
      .select({ id: replicacheClients.id, lastMutationId: replicacheClients.lastMutationId })
      .from(replicacheClients)
      .where(and(eq(replicacheClients.clientGroupId, clientGroupId), gt(replicacheClients.version, since))),
  ]);
  const workspace: WorkspaceSyncState = ws[0] ?? { version: 0, syncEpoch: "", tombstoneFloor: 0 };
  return { workspace, vehicleRows, telemetryRows, eventRows, clientRows };
}
