import type { SQL } from "drizzle-orm";
import type { HistoryShape } from "../party/workspace-room";
import type { HistoryPoint } from "../shared/vehicle-history";
import type { BatchItem } from "drizzle-orm/batch";
import type { BeaconReport, IngestAnswer, LiveOptions } from "../party/live-fleet/live-fleet";
import type { Db } from "../db/client";
import type { Env } from "./env";
import type { ChangeSource, Changes } from "./sync/changes";
import { bumpVersion, versionOf } from "../db/workspace-version";
import type { WorkspaceChange } from "../party/workspace-change";
import type { ShareViewAnswer } from "../party/share-views";

/**
 * Every call from the Worker into a workspace's Durable Object (party/workspace-room.ts, the
 * workspace's room: its sockets, its shared pull reads, its live fleet and positions,
 * docs/decisions/0016, 0023) goes through this module, and every committed write of a workspace
 * is announced to it through `commitWorkspaceWrite` / `announceWrites`.
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

/**
 * Commits one write of a workspace as one D1 transaction: its version goes up first and `writes`
 * stamp the rows they change with `stamp` (the new version, read back inside the transaction),
 * so concurrent writers never share a version (docs/decisions/0003-sync.md). Then announces it.
 *
 *   await commitWorkspaceWrite(w, ws, (stamp) => [db.update(vehicles).set({ name, version: stamp })...]);
 */
export async function commitWorkspaceWrite(
  w: WriteContext,
  workspaceId: string,
  writes: (stamp: SQL<number>) => BatchItem<"sqlite">[],
  options: AnnounceOptions = {},
): Promise<void> {
  await w.db.batch([bumpVersion(w.db, workspaceId), ...writes(versionOf(workspaceId))]);
  await announceWrites(w, [workspaceId], options);
}

export interface AnnounceOptions {
  /**
   * Read-your-writes for the caller's own next pull: the objects drop their shared reads before
   * this resolves (a push answers its client only then; the poke may be throttled). Otherwise the
   * poke alone retires them, a moment later.
   */
  readYourWrites?: boolean;
  /** What the write changed that the object keeps a copy of (places, rules, time zone...): it reloads it before this resolves. */
  change?: Omit<WorkspaceChange, "readYourWrites" | "poke">;
}

/**
 * After writes that committed (one workspace, or a batch that bumped several, as the cron does;
 * ingested reports are not announced here, their object pokes its own sockets): tells each workspace's object, which drops its shared reads and pokes its
 * sockets. A committed write is never undone by an object that cannot be reached: that only
 * delays the announcement until the next write.
 */
export async function announceWrites(
  w: Omit<WriteContext, "db">,
  workspaceIds: Iterable<string>,
  options: AnnounceOptions = {},
): Promise<void> {
  const ids = [...new Set(workspaceIds)];
  if (options.change) {
    // The one announcer: the object updates its copies, drops its reads and pokes, in one call.
    const change: WorkspaceChange = { ...options.change, readYourWrites: options.readYourWrites };
    await Promise.all(
      ids.map((id) =>
        announceChange(w.env, id, change).catch((error) =>
          console.error("the workspace object did not hear of a change:", error),
        ),
      ),
    );
    return;
  }
  if (options.readYourWrites) {
    await Promise.all(
      ids.map((id) =>
        forgetRoomChanges(w.env, id).catch((error) =>
          console.error("the workspace object did not forget its reads:", error),
        ),
      ),
    );
  }
  for (const id of ids) w.waitUntil(pokeWorkspace(w.env, id));
}

/** Tells the workspace's object what a committed write changed (party/workspace-change.ts); resolves once it is up to date. */
export async function announceChange(env: Env, workspaceId: string, change: WorkspaceChange): Promise<void> {
  await workspaceObject(env, workspaceId).changed(change);
}

/** Closes the workspace room's sockets opened by these sessions (they were just revoked). */
export async function closeSessionSockets(env: Env, workspaceId: string, sessionHashes: string[]): Promise<void> {
  await workspaceObject(env, workspaceId).closeSessions(sessionHashes);
}

/** Closes every socket of a user removed from (or leaving) the workspace (docs/decisions/0018). */
export async function closeWorkspaceUser(env: Env, workspaceId: string, userId: string): Promise<void> {
  await workspaceObject(env, workspaceId).closeUser(userId);
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
 * Makes the workspace's room drop its shared reads, so the next pull reads D1: awaited by a push
 * before it answers (its client's next pull sees its mutations, whatever the poke throttle's delay)
 * and after tombstones are collected (a cookie older than the new floor gets its reset).
 */
export async function forgetRoomChanges(env: Env, workspaceId: string): Promise<void> {
  await workspaceObject(env, workspaceId).forgetChanges();
}

/**
 * Tells every client of the workspace to pull. Call after the write has committed.
 *
 * A busy fleet commits many writes a second. The room coalesces anyway, so this isolate sends at
 * most one poke per workspace every WORKER_POKE_INTERVAL_MS: the first at once (latency), later
 * ones folded into a single trailing poke that goes out after them, so the last change is always
 * announced.
 *
 * Requests share plain data only, never promises: workerd ties a promise to the request that made
 * it, and another request awaiting it hangs. The request that schedules the trailing poke owns it
 * (its waitUntil keeps it alive); a later caller only sees that one is pending and returns.
 */
export const WORKER_POKE_INTERVAL_MS = 50;
const lastPokeAt = new Map<string, number>();
const trailingPending = new Set<string>();

export async function pokeWorkspace(env: Env, workspaceId: string): Promise<void> {
  if (trailingPending.has(workspaceId)) return; // not sent yet, so it will announce this write too
  const wait = (lastPokeAt.get(workspaceId) ?? 0) + WORKER_POKE_INTERVAL_MS - Date.now();
  if (wait > 0) {
    trailingPending.add(workspaceId);
    try {
      await new Promise((resolve) => setTimeout(resolve, wait));
    } finally {
      trailingPending.delete(workspaceId);
    }
  }
  lastPokeAt.set(workspaceId, Date.now());
  if (lastPokeAt.size > 10_000) lastPokeAt.clear(); // a hint, not state: forgetting it only costs a poke
  await workspaceObject(env, workspaceId).poke();
}

/**
 * Reports of one workspace's devices, one request per device, to its object (docs/decisions/0016,
 * part 4): answered once they are durable there; the object pokes its own sockets.
 */
export async function ingestInWorkspace(
  env: Env,
  workspaceId: string,
  requests: BeaconReport[][],
  options: Omit<LiveOptions, "modules" | "tables"> & { flushMs?: number },
): Promise<IngestAnswer[]> {
  return (await workspaceObject(env, workspaceId).ingest(requests, options)) as IngestAnswer[];
}

/** Makes the workspace's object write what it has not flushed to D1 yet, before a reader that goes to D1 directly. */
export async function settleWorkspace(env: Env, workspaceId: string): Promise<void> {
  await workspaceObject(env, workspaceId).settle();
}

/** Makes the workspace's object run its alarm jobs that are due (beacon silence: docs/decisions/0059) and set its alarm for the next. */
export async function runWorkspaceJobs(env: Env, workspaceId: string): Promise<void> {
  await workspaceObject(env, workspaceId).runAlarmJobs();
}

/** A vehicle's device id was rotated: its object forgets the old one (unknown from the next report on). */
export async function forgetVehicleDevice(env: Env, workspaceId: string, vehicleId: string): Promise<void> {
  await announceChange(env, workspaceId, { devices: { vehicleIds: [vehicleId] }, poke: false });
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

/** An open share page's poll, answered by the link's workspace object (party/share-views.ts, docs/decisions/0035). */
export async function shareView(env: Env, workspaceId: string, tokenHash: string): Promise<ShareViewAnswer> {
  return (await workspaceObject(env, workspaceId).shareView(tokenHash)) as ShareViewAnswer;
}

/** A share link was ended: the object that answers its pages forgets it, so they say so at once. */
export async function forgetShare(env: Env, workspaceId: string, tokenHash: string): Promise<void> {
  await workspaceObject(env, workspaceId).forgetShare(tokenHash);
}
