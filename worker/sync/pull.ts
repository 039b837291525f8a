import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { PatchOperation, PullResponse, pullRequestSchema } from "../../shared/sync/sync-protocol";
import { telemetryKey } from "../../shared/fleet/telemetry";
import { driverKey } from "../../shared/fleet/driver";
import { vehicleKey } from "../../shared/fleet/vehicle";
import { vehicleEventKey } from "../../shared/fleet/vehicle-event";
import type { Db } from "../../db/client";
import { replicacheClientGroups } from "../../db/schema";
import { AnswerOverHttp } from "../../party/room-sync";
import { can } from "../../shared/account/roles";
import { readChanges, type ChangeSource, type Changes } from "./changes";
import type { Add } from "./add-rows";
import { ackedMutationIds, checkClientGroupOwner, undoClaim, type SyncCaller } from "./client-group";
import { acksMoved, nextCookie, readCookie, resetCookie, type ClientCookie } from "./cookie";
import { requireFullRead } from "./full-read-budget";
import { incrementalOp, resetReason } from "./pull-rules";
import { toDriver, toTelemetry, toVehicle, toVehicleEvent } from "./entities";
import { addPlacesAndAlerts } from "./places-entities";
import { addIssues } from "./issue-entities";
import { addMaintenance } from "./maintenance-entities";
import { addFuel } from "./fuel-entities";
import { addCosts } from "./cost-entities";
import { addWorkOrders } from "./work-order-entities";
import { addJobs } from "./jobs-entities";

type PullRequest = z.infer<typeof pullRequestSchema>;

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
 *
 * `shared` serves the part of an incremental answer that is the same for every client at that
 * cookie version (the workspace's room: read once per write, not once per open browser;
 * docs/decisions/0013); what is particular to this client (its group's mutation ids, which
 * tombstones it can hold) is picked out of it here. Full answers read D1 directly.
 */
export async function pull(
  db: Db,
  session: SyncCaller,
  req: PullRequest,
  shared: ChangeSource = (workspaceId, since) => readChanges(db, workspaceId, since),
): Promise<PullResponse> {
  const workspaceId = session.workspaceId;
  const { created } = await checkClientGroupOwner(db, session, req.clientGroupID);
  const client = readCookie(req.cookie);
  if (created && client.kind === "ours" && client.cookie.group === req.clientGroupID) {
    // This group had pulled before and is gone (deleted as idle, ADR 0035): Replicache starts anew.
    await undoClaim(db, req.clientGroupID);
    return { error: "ClientStateNotFound" };
  }

  if (client.kind === "ours") {
    const { version: since } = client.cookie;
    let incremental = await shared(workspaceId, since);
    if (incremental.workspace.version < since || incremental.workspace.syncEpoch !== client.cookie.epoch) {
      // The shared read may predate the client's cookie (a full answer reads D1 directly, and the
      // poke that retires a shared read can lag a write): only D1 itself can say "restored".
      incremental = await readChanges(db, workspaceId, since);
    }
    const { workspace } = incremental;
    const reason = resetReason(client, workspace);
    if (reason !== null) await requireFullRead(db, session);
    if (reason === null) {
      const patch = incrementalPatch(incremental, since, webhooksShown(session, incremental));
      // A push recorded without a write moved the acks, not the version: this group's ids are read here (ADR 0035).
      const acked = acksMoved(client.cookie, workspace.acks)
        ? await ackedMutationIds(db, req.clientGroupID, since, workspace.version)
        : {};
      return {
        cookie: {
          ...nextCookie(client.cookie, workspace.version, workspace.syncEpoch, workspace.acks),
          group: req.clientGroupID,
        },
        lastMutationIDChanges: { ...acked, ...lastMutationIds(incremental.clientRows, req.clientGroupID) },
        patch,
      };
    }
    if (reason === "restored") {
      // The client's lastMutationIDs may be above what this server remembers: say nothing about them
      // (Replicache refuses a lower one) and let this group's next pushes rebase its clients' ids.
      await db
        .update(replicacheClientGroups)
        .set({ rebase: true })
        .where(eq(replicacheClientGroups.id, req.clientGroupID));
      console.warn(
        `pull: client group ${req.clientGroupID} is ahead of workspace ${workspaceId} (restored?): full reset`,
      );
    }
    return fullAnswer(db, workspaceId, req.clientGroupID, client, reason === "restored", canEditRules(session));
  }
  await requireFullRead(db, session);
  return fullAnswer(db, workspaceId, req.clientGroupID, client, false, canEditRules(session));
}

/** `clear` and every live row, read from scratch, with a cookie ordered above the client's. */
async function fullAnswer(
  db: Db,
  workspaceId: string,
  clientGroupId: string,
  client: ClientCookie,
  restored: boolean,
  showWebhooks: boolean,
): Promise<PullResponse> {
  const full = await readChanges(db, workspaceId, -1, { live: true });
  const patch: PatchOperation[] = [{ op: "clear" }];
  addAll(
    full,
    (rows, key, value) => {
      for (const row of rows) patch.push({ op: "put", key: key(row), value: value(row) });
    },
    showWebhooks,
  );
  return {
    cookie: {
      ...resetCookie(client, full.workspace.version, full.workspace.syncEpoch, full.workspace.acks),
      group: clientGroupId,
    },
    lastMutationIDChanges: restored ? {} : lastMutationIds(full.clientRows, clientGroupId),
    patch,
  };
}

/** What changed since the client's cookie, as puts and dels. */
function incrementalPatch(incremental: Changes, since: number, showWebhooks: boolean): PatchOperation[] {
  const patch: PatchOperation[] = [];
  addAll(
    incremental,
    (rows, key, value) => {
      for (const row of rows) {
        const op = incrementalOp(row, since);
        if (op === "put") patch.push({ op, key: key(row), value: value(row) });
        else if (op === "del") patch.push({ op, key: key(row) });
      }
    },
    showWebhooks,
  );
  return patch;
}

const canEditRules = (caller: SyncCaller) => can(caller.role, "fleet.edit");

/**
 * Whether this incremental answer may carry rules' webhook URLs whole. A socket's caller has no
 * role at hand (the room keeps none): an answer with a webhook URL in it then goes over HTTP,
 * where the session's role decides (the room answers `viaHttp` on any error).
 */
function webhooksShown(caller: SyncCaller, changes: Changes): boolean {
  if (caller.role !== undefined) return canEditRules(caller);
  if (changes.ruleRows.some((r) => r.config.notify?.webhookUrl))
    throw new AnswerOverHttp("a rule's webhook URL is answered over HTTP only");
  return false;
}

function addAll(changes: Changes, add: Add, showWebhooks: boolean) {
  add(changes.vehicleRows, (r) => vehicleKey(r.id), toVehicle);
  add(changes.telemetryRows, (r) => telemetryKey(r.vehicleId), toTelemetry);
  add(changes.eventRows, (r) => vehicleEventKey(r.vehicleId, r.id), toVehicleEvent);
  add(changes.driverRows, (r) => driverKey(r.id), toDriver);
  addPlacesAndAlerts(changes, add, showWebhooks);
  addIssues(changes, add);
  addMaintenance(changes, add);
  addFuel(changes, add);
  addCosts(changes, add);
  addWorkOrders(changes, add);
  addJobs(changes, add);
}

/** The shared read carries every client of the workspace changed since the cookie: keep this group's. */
function lastMutationIds(rows: { id: string; clientGroupId: string; lastMutationId: number }[], clientGroupId: string) {
  const changes: Record<string, number> = {};
  for (const c of rows) if (c.clientGroupId === clientGroupId) changes[c.id] = c.lastMutationId;
  return changes;
}
