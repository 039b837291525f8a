import type { HistoryShape } from "../party/room/positions";
import type { HistoryPoint } from "../shared/fleet/vehicle-history";
import type { BatchItem } from "drizzle-orm/batch";
import type { IngestAnswer, LiveOptions } from "../party/live-fleet/live-fleet";
import type { IngestRequest } from "../domain/fold/ingest-request";
import type { Db, LiveWrites } from "../db/client";
import type { Env } from "./env";
import type { ChangeSource, Changes } from "./sync/changes";
import {
  commitAcross,
  commitUnversioned,
  commitWrite,
  commitWrites,
  type Writes,
  type WorkspaceWriter,
} from "../db/writer";
import type { WorkspaceChange } from "../party/workspace-change";
import type { ShareViewAnswer } from "../party/room/share-views";
import type { AlarmWake } from "../party/alarm/alarm-task";

/**
 * Every call from the Worker into a workspace's Durable Object (party/fleet-room.ts, the
 * workspace's room: its sockets, its shared pull reads, its live fleet and positions,
 * docs/decisions/0016, 0023) goes through this module, and every committed write of a workspace
 * is announced to it through `commitWorkspaceWrite` / `announceWrites`: the Worker's side of the one
 * writer (db/writer.ts, docs/decisions/0081), whose commits it pairs with their announcement.
 *
 * The object is addressed by the workspace id through `idFromName`, so its own `this.name` is
 * the workspace id without the extra naming RPC partyserver's getServerByName costs.
 */
function workspaceObject(env: Env, workspaceId: string) {
  return env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId));
}

/** What a write needs to be announced: the bindings, and the request's waitUntil for the poke. */
export interface WriteContext {
  env: Env;
  db: Db;
  waitUntil: (work: Promise<unknown>) => void;
}

// ---------------------------------------------------------------- writes, committed by the one writer (db/writer.ts, docs/decisions/0081)

export type { Writes, WorkspaceWriter } from "../db/writer";

/**
 * Commits one write of a workspace as one D1 transaction (its version bumped, its rows stamped:
 * db/writer.ts), then announces it.
 *
 *   await commitWorkspaceWrite(w, ws, (stamp, live) => [live.update(vehicles).set({ name, version: stamp })...]);
 */
export async function commitWorkspaceWrite(
  w: WriteContext,
  workspaceId: string,
  writes: Writes,
  options: AnnounceOptions & { guards?: (live: LiveWrites) => BatchItem<"sqlite">[] } = {},
): Promise<void> {
  const { guards, ...announce } = options;
  await commitWrite(w.db, workspaceId, writes, { guards, announce: () => announceWrites(w, [workspaceId], announce) });
}

/**
 * Several commits of one workspace announced once, when `run` ends (the push: a transaction per
 * mutation, one announcement per request). `announcement` says how from what `run` answered; a
 * run that committed anything is announced even when it says nothing (a poke with
 * read-your-writes), and also when `run` throws after a commit.
 */
export function commitWorkspaceWrites<T>(
  w: WriteContext,
  workspaceId: string,
  run: (writer: WorkspaceWriter) => Promise<T>,
  announcement: (result: T) => AnnounceOptions | null,
): Promise<T> {
  return commitWrites(w.db, workspaceId, run, async (result, committed) => {
    const options = result === undefined ? null : announcement(result);
    if (options || committed) await announceWrites(w, [workspaceId], options ?? { readYourWrites: true });
  });
}

/**
 * `commitWorkspaceWrite` for one write across many workspaces at once (the cron's expiry of old
 * Inbox alerts, docs/decisions/0069): every workspace's version bumped and each row stamped with its
 * own workspace's (`stampOf(the row's workspace column)`), in one D1 transaction, then each
 * workspace is announced (a poke).
 */
export async function commitWorkspacesWrite(
  w: Pick<WriteContext, "env" | "db"> & Partial<Pick<WriteContext, "waitUntil">>,
  workspaceIds: Iterable<string>,
  writes: Parameters<typeof commitAcross>[2],
): Promise<void> {
  await commitAcross(w.db, workspaceIds, writes, (written) => announceWrites(w, written));
}

/**
 * The cron's collection of a workspace's old tombstones (worker/sync/tombstones.ts): rows deleted
 * more than 30 days ago leave D1, in one transaction with the `tombstone_floor` that sends every
 * older cookie a reset. No version bump: a pull from a cookie above the floor sees the same rows
 * as before (a tombstone's `del` is only for clients older than the floor, which reset). Announced
 * so the object drops its shared reads, which could still diff a cookie below the new floor; no
 * page is poked, since none has anything new to pull.
 */
export async function commitTombstoneCollection(
  w: Pick<WriteContext, "env" | "db">,
  workspaceId: string,
  writes: (live: LiveWrites) => BatchItem<"sqlite">[],
): Promise<void> {
  await commitUnversioned(w.db, writes, () =>
    announceWrites(w, [workspaceId], { readYourWrites: true, change: { poke: false } }),
  );
}

export interface AnnounceOptions {
  /**
   * Read-your-writes for the caller's own next pull: the objects drop their shared reads before
   * this resolves (a push answers its client only then; the poke is paced). Otherwise the poke
   * retires them a moment later.
   */
  readYourWrites?: boolean;
  /** What else changed, that the object keeps a copy of or acts on (places, time zone, members, shares...). */
  change?: Omit<WorkspaceChange, "readYourWrites">;
}

/**
 * After writes that committed (one workspace, or several at once, as the cron does), and after
 * anything else a workspace's object must hear of: tells each object, which updates its copies,
 * drops its shared reads and pokes its sockets (paced by the object alone: docs/decisions/0058).
 * Awaited when the caller needs it done (read-your-writes, or a copy, a socket or a link to act
 * on) or has no waitUntil; a plain poke goes in the request's waitUntil, so the answer does not wait. A
 * committed write is never undone by an object that cannot be reached: that only delays the
 * announcement until the next write (and the room's re-check closes sockets within a minute).
 */
export async function announceWrites(
  w: Pick<WriteContext, "env"> & Partial<Pick<WriteContext, "waitUntil">>,
  workspaceIds: Iterable<string>,
  options: AnnounceOptions = {},
): Promise<void> {
  const change: WorkspaceChange = { ...options.change, readYourWrites: options.readYourWrites };
  const announce = (id: string) =>
    announceChange(w.env, id, change).catch((error: unknown) =>
      console.error("the workspace object did not hear of a change:", error),
    );
  const ids = [...new Set(workspaceIds)];
  // A rotated device id must stop working: the caller fails rather than answer as if it had.
  if (change.devices) return void (await Promise.all(ids.map((id) => announceChange(w.env, id, change))));
  const needed = change.readYourWrites || Object.keys(change).some((key) => key !== "readYourWrites" && key !== "poke");
  if (needed || !w.waitUntil) await Promise.all(ids.map(announce));
  else for (const id of ids) w.waitUntil(announce(id));
}

/**
 * The one call into a workspace's object that says something changed (FleetRoom.changed,
 * party/workspace-change.ts): nothing else in the Worker calls it; resolves once the object is up to date.
 */
async function announceChange(env: Env, workspaceId: string, change: WorkspaceChange): Promise<void> {
  await workspaceObject(env, workspaceId).changed(change);
}

/**
 * The shared part of incremental pulls, from the workspace's room (docs/decisions/0013): one D1
 * read per write and cookie however many browsers pull after the poke.
 */
export function roomChanges(env: Env): ChangeSource {
  return async (workspaceId, since) =>
    (await workspaceObject(env, workspaceId).changesSince(workspaceId, since)) as Changes;
}

/**
 * Reports of one workspace's devices, one request per device (or its reports without a position), to its object (docs/decisions/0016,
 * part 4): answered once they are durable there; the object pokes its own sockets.
 */
export async function ingestInWorkspace(
  env: Env,
  workspaceId: string,
  requests: IngestRequest[],
  options: Omit<LiveOptions, "modules" | "tables"> & { flushMs?: number },
): Promise<IngestAnswer[]> {
  return (await workspaceObject(env, workspaceId).ingest(requests, options)) as IngestAnswer[];
}

/** Makes the workspace's object write what it has not flushed to D1 yet, before a reader that goes to D1 directly. */
export async function settleWorkspace(env: Env, workspaceId: string): Promise<void> {
  await workspaceObject(env, workspaceId).settle();
}

/**
 * Makes the workspace's object run its alarm tasks that are due (beacon silence: docs/decisions/0059)
 * and set its alarm for the next; `wake` says what the cron found due there that the object cannot
 * know of itself (service due notices: docs/decisions/0066).
 */
export async function runWorkspaceTasks(env: Env, workspaceId: string, wake: AlarmWake = {}, now = Date.now()) {
  await workspaceObject(env, workspaceId).runAlarmTasks(now, wake);
}

// ---------------------------------------------------------------- positions (party/positions/, docs/decisions/0023)

/**
 * One vehicle's history from its workspace's object (raw, packed, R2 and D1's old rows). The
 * caller has checked that the vehicle belongs to the workspace: the object only ever holds its own
 * workspace's positions, so another workspace's vehicle reads as empty there in any case.
 */
export async function vehicleHistory(
  env: Env,
  workspaceId: string,
  vehicleId: string,
  from: number,
  to: number,
  shape: HistoryShape = {},
): Promise<HistoryPoint[]> {
  return workspaceObject(env, workspaceId).positionHistory(vehicleId, from, to, shape);
}

/** Deletes every position a deleted workspace had, in its object and R2 (D1's old rows go with its D1 rows). */
export async function deleteWorkspacePositions(env: Env, workspaceIds: string[]): Promise<void> {
  await Promise.all(workspaceIds.map((id) => workspaceObject(env, id).deleteAllPositions()));
}

/** How many fixes of a vehicle are stored with device time in [from, to]. */
export async function vehiclePositionCount(
  env: Env,
  workspaceId: string,
  vehicleId: string,
  from: number,
  to: number,
): Promise<number> {
  return workspaceObject(env, workspaceId).positionCount(vehicleId, from, to);
}

/** An open share page's poll, answered by the link's workspace object (party/room/share-views.ts, docs/decisions/0035). */
export async function shareView(env: Env, workspaceId: string, tokenHash: string): Promise<ShareViewAnswer> {
  return (await workspaceObject(env, workspaceId).shareView(tokenHash)) as ShareViewAnswer;
}
