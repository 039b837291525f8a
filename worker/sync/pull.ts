import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { PatchOperation, PullResponse, pullRequestSchema } from "../../shared/sync-protocol";
import { telemetryKey } from "../../shared/telemetry";
import { vehicleKey } from "../../shared/vehicle";
import { vehicleEventKey } from "../../shared/vehicle-event";
import type { SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { replicacheClientGroups } from "../db/schema";
import { forbidden } from "../lib/errors";
import { readChanges, type ChangeSource } from "./changes";
import { toTelemetry, toVehicle, toVehicleEvent } from "./entities";

type PullRequest = z.infer<typeof pullRequestSchema>;

/**
 * Per-space version pull (docs/decisions/0003-sync.md): the cookie is the workspace version the
 * client has seen; the answer is every row of the session's workspace stamped later, `del` for
 * rows deleted since, and the last mutation ids of the group's clients changed since.
 * `shared` serves the part of an incremental answer that is the same for every client at that
 * cookie (the workspace's room: read once per write, not once per open browser; docs/decisions/0013).
 */
export async function pull(
  db: Db,
  session: SessionInfo & { workspaceId: string },
  req: PullRequest,
  shared: ChangeSource = (workspaceId, since) => readChanges(db, workspaceId, since),
): Promise<PullResponse> {
  const workspaceId = session.workspaceId;
  const group = await ensureClientGroup(db, session, req.clientGroupID);
  const since = typeof req.cookie === "number" ? req.cookie : null;
  if (since !== null && !group.existed) {
    // The client has state this server never gave this group: start it over.
    return { error: "ClientStateNotFound" };
  }

  let changes = since === null ? await readChanges(db, workspaceId, -1) : await shared(workspaceId, since);
  // A cookie from the future (e.g. the workspace was restored from a backup) cannot be diffed
  // against: resend everything, read again from the start.
  const reset = since === null || since > changes.version;
  if (since !== null && reset) changes = await readChanges(db, workspaceId, -1);
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
  for (const c of clientRows) if (c.clientGroupId === req.clientGroupID) lastMutationIDChanges[c.id] = c.lastMutationId;

  return { cookie: version, lastMutationIDChanges, patch };
}

/**
 * A client group belongs to one user in one workspace. Reusing its id from another session (another
 * user, or the same user in another workspace) is refused, so no state can leak across tenants.
 */
export async function ensureClientGroup(db: Db, session: SessionInfo & { workspaceId: string }, clientGroupId: string) {
  // A group's owner never changes once written: known owners skip the read, so a pull after a
  // poke costs no D1 work of its own (docs/decisions/0013).
  const existing = knownGroups.get(clientGroupId) ?? (await db.select().from(replicacheClientGroups).where(eq(replicacheClientGroups.id, clientGroupId)).get());
  if (existing) {
    rememberGroup(clientGroupId, existing);
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

/** Owners of client groups this isolate has seen (plain data, bounded: forgetting costs one read). */
const knownGroups = new Map<string, { userId: string; workspaceId: string }>();
function rememberGroup(id: string, owner: { userId: string; workspaceId: string }) {
  if (knownGroups.has(id)) return;
  if (knownGroups.size >= 10_000) knownGroups.clear();
  knownGroups.set(id, { userId: owner.userId, workspaceId: owner.workspaceId });
}
