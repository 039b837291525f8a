import { and, eq, gt } from "drizzle-orm";
import type { z } from "zod";
import type { PatchOperation, PullResponse, pullRequestSchema } from "../../shared/sync-protocol";
import { telemetryKey } from "../../shared/telemetry";
import { vehicleKey } from "../../shared/vehicle";
import { vehicleEventKey } from "../../shared/vehicle-event";
import type { SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { replicacheClientGroups, replicacheClients, telemetry, vehicleEvents, vehicles, workspaces } from "../db/schema";
import { forbidden } from "../lib/errors";
import { toTelemetry, toVehicle, toVehicleEvent } from "./entities";

type PullRequest = z.infer<typeof pullRequestSchema>;

/**
 * Per-space version pull (docs/decisions/0003-sync.md): the cookie is the workspace version the
 * client has seen; the answer is every row of the session's workspace stamped later, `del` for
 * rows deleted since, and the last mutation ids of the group's clients changed since.
 */
export async function pull(db: Db, session: SessionInfo & { workspaceId: string }, req: PullRequest): Promise<PullResponse> {
  const workspaceId = session.workspaceId;
  const group = await ensureClientGroup(db, session, req.clientGroupID);
  const since = typeof req.cookie === "number" ? req.cookie : null;
  if (since !== null && !group.existed) {
    // The client has state this server never gave this group: start it over.
    return { error: "ClientStateNotFound" };
  }

  let changes = await changesSince(db, workspaceId, req.clientGroupID, since ?? -1);
  // A cookie from the future (e.g. the workspace was restored from a backup) cannot be diffed
  // against: resend everything, read again from the start.
  const reset = since === null || since > changes.version;
  if (since !== null && reset) changes = await changesSince(db, workspaceId, req.clientGroupID, -1);
  const { version, vehicleRows, telemetryRows, eventRows, clientRows } = changes;

  const patch: PatchOperation[] = reset ? [{ op: "clear" }] : [];
  const add = <R extends { deleted: boolean }>(rows: R[], key: (r: R) => string, value: (r: R) => unknown) => {
    for (const row of rows) {
      if (row.deleted) {
        if (!reset) patch.push({ op: "del", key: key(row) });
      } else {
        patch.push({ op: "put", key: key(row), value: value(row) });
      }
    }
  };
  add(vehicleRows, (r) => vehicleKey(r.id), toVehicle);
  add(telemetryRows, (r) => telemetryKey(r.vehicleId), toTelemetry);
  add(eventRows, (r) => vehicleEventKey(r.vehicleId, r.id), toVehicleEvent);

  const lastMutationIDChanges: Record<string, number> = {};
  for (const c of clientRows) lastMutationIDChanges[c.id] = c.lastMutationId;

  return { cookie: version, lastMutationIDChanges, patch };
}

/** Everything of the workspace stamped after `since`; D1 runs a batch as one transaction, so it is a consistent snapshot. */
async function changesSince(db: Db, workspaceId: string, clientGroupId: string, since: number) {
  const [ws, vehicleRows, telemetryRows, eventRows, clientRows] = await db.batch([
    db.select({ version: workspaces.version }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db.select().from(vehicles).where(and(eq(vehicles.workspaceId, workspaceId), gt(vehicles.version, since))),
    db.select().from(telemetry).where(and(eq(telemetry.workspaceId, workspaceId), gt(telemetry.version, since))),
    db.select().from(vehicleEvents).where(and(eq(vehicleEvents.workspaceId, workspaceId), gt(vehicleEvents.version, since))),
    db
      .select({ id: replicacheClients.id, lastMutationId: replicacheClients.lastMutationId })
      .from(replicacheClients)
      .where(and(eq(replicacheClients.clientGroupId, clientGroupId), gt(replicacheClients.version, since))),
  ]);
  return { version: ws[0]?.version ?? 0, vehicleRows, telemetryRows, eventRows, clientRows };
}

/**
 * A client group belongs to one user in one workspace. Reusing its id from another session (another
 * user, or the same user in another workspace) is refused, so no state can leak across tenants.
 */
export async function ensureClientGroup(db: Db, session: SessionInfo & { workspaceId: string }, clientGroupId: string) {
  const existing = await db.select().from(replicacheClientGroups).where(eq(replicacheClientGroups.id, clientGroupId)).get();
  if (existing) {
    if (existing.userId !== session.userId || existing.workspaceId !== session.workspaceId) {
      throw forbidden("This sync client belongs to another session");
    }
    return { existed: true };
  }
  await db
    .insert(replicacheClientGroups)
    .values({ id: clientGroupId, userId: session.userId, workspaceId: session.workspaceId })
    .onConflictDoNothing();
  return { existed: false };
}
