import { and, eq, getTableColumns, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import { mutationNames } from "../../shared/sync/mutators";
import { can, mutationActions, refusalMessage, type RefusedMutation } from "../../shared/account/roles";
import type { Mutation, pushRequestSchema } from "../../shared/sync/sync-protocol";
import type { SessionInfo } from "../auth/session";
import type { Db } from "../../db/client";
import { replicacheClients, workspaces } from "../../db/schema";
import { chunkRows } from "../../db/chunk";
import { claimClientGroup, undoClaim } from "./client-group";
import { MutationRejected, serverMutators } from "./mutators";
import type { MutationCaller } from "./issue-mutators";
import { boundPush } from "./push-bounds";
import { JOB_MUTATIONS } from "./jobs-mutators";
import { fuelLogChanged } from "../fuel/fuel-stretches";
import { completionRaced } from "../maintenance/work-order-completion";
import {
  commitWorkspaceWrites,
  type AnnounceOptions,
  type WorkspaceWriter,
  type WriteContext,
} from "../workspace-object";

type PushRequest = z.infer<typeof pushRequestSchema>;

/**
 * At most this many mutations are applied per request (each costs about three D1 round trips); the
 * rest wait for the client's next push, which resends every mutation still pending.
 */
export const MAX_MUTATIONS_PER_PUSH = 50;

/**
 * Replicache push, one mutation at a time (docs/decisions/0003-sync.md). D1 has no interactive
 * transactions, so each mutation does its reads first and then commits ONE batch: the version
 * bump, its writes, and the client's new last mutation id, behind a guard that aborts the batch
 * if another request processed this client's mutations in the meantime. A mutation with nothing
 * to write (refused, unknown) bumps no version: its id is recorded and the workspace's acks raised,
 * so no other client has anything to pull (docs/decisions/0035).
 * Returns whether anything was written (then the caller pokes the workspace), and the mutations
 * the caller's role may not make (recorded as processed without effects; the answer names them
 * so the browser can say why its optimistic change went back: docs/decisions/0018).
 * Every commit goes through the one writer (worker/workspace-object.ts commitWorkspaceWrites), which
 * announces the request's writes once, when it ends (`pushAnnouncement`).
 */
export async function push(
  w: WriteContext,
  session: SessionInfo & { workspaceId: string },
  whole: PushRequest,
): Promise<PushOutcome> {
  const req = boundPush(whole, session.userId);
  return commitWorkspaceWrites(
    w,
    session.workspaceId,
    (writer) => pushAs(w.db, writer, session, req),
    (outcome) => pushAnnouncement(outcome, req.mutations),
  );
}

type PushOutcome = { wrote: boolean; recorded: boolean; refused: RefusedMutation[]; clientStateNotFound?: true };

const PLACE_MUTATIONS = new Set(["createPlace", "updatePlace", "deletePlace"]);

/**
 * How a push is announced to the workspace's object. A write: with read-your-writes for the
 * pushing client (no pull after this answer is served a shared read from before it; the poke may
 * be throttled: docs/decisions/0013), and what the object keeps a copy of: places reach its watch
 * before the next report, a vehicle's settings may hold a new fuel tank (fuel_drop rules measure
 * litres with it), jobs planned or moved reach its job watch (issue 43). Only refused or unknown
 * mutations (issue 34): nobody else is poked, but the pusher's next pull must see them processed,
 * so the room's shared reads go.
 */
function pushAnnouncement(outcome: PushOutcome, mutations: readonly Mutation[]): AnnounceOptions | null {
  if (outcome.wrote) {
    const placesChanged = mutations.some((m) => PLACE_MUTATIONS.has(m.name));
    const tanksChanged = mutations.some((m) => m.name === "updateVehicle");
    const jobsChanged = mutations.some((m) => JOB_MUTATIONS.has(m.name));
    const change = {
      ...(placesChanged && { places: true }),
      ...(tanksChanged && { tanks: true }),
      ...(jobsChanged && { jobs: true }),
    };
    return { readYourWrites: true, ...(placesChanged || tanksChanged || jobsChanged ? { change } : {}) };
  }
  return outcome.recorded ? { readYourWrites: true, change: { poke: false } } : null;
}

async function pushAs(
  db: Db,
  writer: WorkspaceWriter,
  session: SessionInfo & { workspaceId: string },
  req: PushRequest,
): Promise<PushOutcome> {
  const workspaceId = session.workspaceId;
  const group = await claimClientGroup(db, session, req.clientGroupID);
  const refused: RefusedMutation[] = [];
  let wrote = false;
  let recorded = false;
  let applied = 0;
  // 1. Where is each client? One read for all (a week offline resends hundreds of mutations, most
  //    of them already processed by earlier requests). A client unknown to the server has processed nothing.
  const clients = await readClients(db, req.mutations);
  const caller = { userId: session.userId, stamp: writer.stamp, live: writer.live };
  if (!group.rebase && lostClients(req.mutations, clients)) {
    // Its group was deleted as idle (docs/decisions/0035): Replicache drops this state and starts anew.
    if (group.created) await undoClaim(db, req.clientGroupID);
    return { wrote, recorded, refused, clientStateNotFound: true };
  }

  for (const mutation of req.mutations) {
    if (applied >= MAX_MUTATIONS_PER_PUSH) break;
    const client = clients.get(mutation.clientID);
    // 2 and 3. Skip what was already processed; stop at a gap or another group's client.
    const step = stepFor(mutation, client, req.clientGroupID, group.rebase);
    if (step === "stop") break;
    if (step === "skip") continue;

    // 4. Run it; a refused mutation still counts as processed, with no writes. The role is the
    //    one read with this request's session: a demotion applies from the next push on.
    const allowed = allowedFor(session.role, mutation);
    const refuse = (message: string) =>
      refused.push({ clientID: mutation.clientID, id: mutation.id, name: mutation.name, message });
    if (!allowed) refuse(refusalMessage(session.role));
    const writes = allowed ? await runMutation(db, workspaceId, mutation, caller, refuse) : [];
    const guard = guardLastMutationId(db, mutation.clientID, client?.lastMutationId ?? 0, client !== undefined);
    const recordAs = (id: number) => recordLastMutationId(db, writer.stamp, mutation.clientID, req.clientGroupID, id);
    const commit = (items: BatchItem<"sqlite">[]) =>
      items.length === 0 && !group.rebase
        ? // nothing to write (refused, unknown, error mode): the id is acknowledged, the version stays (docs/decisions/0035)
          writer.acknowledge([guard, recordAs(mutation.id), raiseAcks(db, workspaceId)])
        : writer.commit([...items, recordAs(mutation.id)], [guard]);
    // 5. Commit (or, if its writes fail, record it as processed without them).
    const outcome = await commitOrRecord(commit, writes, mutation);
    if (outcome === "lost-race") break; // another request got there first: the client retries
    if (outcome === "recorded-without-writes") refuse(COULD_NOT_APPLY);
    // a refused or unknown mutation changes nothing anyone else sees: nobody is poked for it (issue 34)
    if (writes.length) wrote = true;
    recorded = true;
    applied++;
    clients.set(mutation.clientID, { clientGroupId: req.clientGroupID, lastMutationId: mutation.id });
  }
  if (group.rebase && !wrote) wrote = await restampProcessed(db, writer, req, clients);
  return { wrote, recorded, refused };
}

type ClientRow = { clientGroupId: string; lastMutationId: number };

/**
 * Whether a client the server has no row for sends a first mutation above 1: it had mutations
 * processed here, and its state is gone (its idle group was deleted). Replicache pushes every
 * pending mutation from the lowest, so a client's first push always starts at 1.
 */
function lostClients(mutations: readonly Mutation[], clients: Map<string, ClientRow>): boolean {
  const lowest = new Map<string, number>();
  for (const m of mutations) lowest.set(m.clientID, Math.min(m.id, lowest.get(m.clientID) ?? Infinity));
  return [...lowest].some(([clientID, id]) => id > 1 && !clients.has(clientID));
}

/** What to do with the next mutation, given where its client stands: apply it, skip it, or stop this push. */
function stepFor(
  mutation: Mutation,
  client: ClientRow | undefined,
  clientGroupID: string,
  rebase: boolean,
): "apply" | "skip" | "stop" {
  if (client && client.clientGroupId !== clientGroupID) return "stop"; // not this group's client: ignore the rest
  const lastMutationId = client?.lastMutationId ?? 0;
  // 2. Already processed (a replay or a duplicate request): skip it.
  if (mutation.id <= lastMutationId) return "skip";
  // 3. From the future (an earlier one is missing): stop; the client resends in order. Unless the
  //    server was restored to a point before this client's last mutations (the group is marked by
  //    the pull that found it ahead): then what the client still holds pending is all there is.
  if (mutation.id > lastMutationId + 1 && !rebase) return "stop";
  return "apply";
}

/**
 * What the browser is told of a mutation the server could not apply for a reason of its own (a
 * bug, an input the mutator did not expect, a write D1 refused): never the error itself.
 */
export const COULD_NOT_APPLY = "The server could not apply this change";

/**
 * 5. Commits a mutation's writes and the new last mutation id together; "lost-race" when another
 * request processed this client's mutations first. If the writes themselves fail (a constraint, a
 * bug), retries in "error mode": the last mutation id alone, so one bad mutation cannot block
 * every later one, and the caller refuses it in the answer (the browser says so and undoes it).
 * If even that fails, D1 is in trouble: throw (500) and let Replicache retry.
 */
async function commitOrRecord(
  commit: (items: BatchItem<"sqlite">[]) => Promise<unknown>,
  writes: BatchItem<"sqlite">[],
  mutation: Mutation,
): Promise<"committed" | "recorded-without-writes" | "lost-race"> {
  try {
    await commit(writes);
    return "committed";
  } catch (error) {
    if (lostRace(error, mutation)) return "lost-race";
    if (writes.length === 0) throw error;
    console.error(
      `push: ${mutation.name} #${mutation.id} of ${mutation.clientID} failed, recorded without its effects:`,
      error,
    );
  }
  try {
    await commit([]);
    return "recorded-without-writes";
  } catch (retryError) {
    if (lostRace(retryError, mutation)) return "lost-race";
    throw retryError;
  }
}

/** Whether the role may make this mutation (shared/account/roles.ts); an unknown name is left to runMutation. */
function allowedFor(role: string | null, mutation: Mutation): boolean {
  const action = mutationActions[mutation.name as keyof typeof mutationActions];
  return action === undefined || can(role, action);
}

async function readClients(db: Db, mutations: readonly Mutation[]) {
  const ids = [...new Set(mutations.map((m) => m.clientID))];
  const clients = new Map<string, ClientRow>();
  for (const chunk of chunkRows(ids, 1)) {
    const rows = await db
      .select({
        id: replicacheClients.id,
        clientGroupId: replicacheClients.clientGroupId,
        lastMutationId: replicacheClients.lastMutationId,
      })
      .from(replicacheClients)
      .where(inArray(replicacheClients.id, chunk));
    for (const { id, ...row } of rows) clients.set(id, row);
  }
  return clients;
}

/**
 * After a restore, a client may hold as pending mutations the restored server had already
 * processed; the reset pull could not say so (it sends no last mutation ids). When a push of such
 * a group applied nothing, its clients' rows are stamped with a new version so the next pull
 * reports their last mutation ids, and the client drops what was already done.
 */
async function restampProcessed(db: Db, writer: WorkspaceWriter, req: PushRequest, clients: Map<string, ClientRow>) {
  const processed = [...new Set(req.mutations.map((m) => m.clientID))].filter((id) => {
    const client = clients.get(id);
    return (
      client?.clientGroupId === req.clientGroupID &&
      req.mutations.some((m) => m.clientID === id && m.id <= client.lastMutationId)
    );
  });
  if (processed.length === 0) return false;
  await writer.commit(
    processed.map((id) =>
      db.update(replicacheClients).set({ version: writer.stamp }).where(eq(replicacheClients.id, id)),
    ),
  );
  return true;
}

/**
 * The client's new last mutation id, stamped with the workspace's version as it stands in the
 * batch: after a bump, the new version (every pull past the old cookie sees it); without one, the
 * current version, which a pull whose cookie is at it finds when the workspace's acks moved.
 */
function recordLastMutationId(
  db: Db,
  stamp: SQL<number>,
  clientId: string,
  clientGroupId: string,
  lastMutationId: number,
) {
  return db
    .insert(replicacheClients)
    .values({ id: clientId, clientGroupId, lastMutationId, version: stamp })
    .onConflictDoUpdate({ target: replicacheClients.id, set: { lastMutationId, version: stamp } });
}

/** A mutation recorded without a write: the pulls of this workspace learn to look for acknowledged ids (cookie.ts). */
function raiseAcks(db: Db, workspaceId: string) {
  return db
    .update(workspaces)
    .set({ syncAcks: sql`${workspaces.syncAcks} + 1` })
    .where(eq(workspaces.id, workspaceId));
}

/**
 * Another request got there first: this client's mutations (the last mutation id's guard), the
 * same vehicle's fill-ups between a fuel mutation's read of the log and its commit (the stretches'
 * guard, worker/fuel/fuel-stretches.ts), or a work order or the stock it takes between a
 * completion's checks and its commit (worker/maintenance/work-order-completion.ts). Nothing was
 * written; the browser pushes again, and the mutation's checks see what changed (a part now short
 * of stock refuses it, naming the part). The completion's guards collide with the keys of `work_orders`
 * and `parts`, which it never inserts otherwise: only its own such failure is a race, so any other
 * mutation's key clash there (an id taken meanwhile) is refused as an error, not retried forever
 * (docs/decisions/0092).
 */
const lostRace = (error: unknown, mutation: Mutation) =>
  String(error).includes("UNIQUE constraint failed: replicache_clients.id") ||
  fuelLogChanged(error) ||
  (mutation.name === "completeWorkOrder" && completionRaced(error));

/** D1 itself failing (network, overload, reset): worth a retry, unlike an error of the mutation. */
const isTransient = (error: unknown) => /D1_|SQLITE_BUSY|network|timed? ?out|overloaded|reset/i.test(String(error));

/**
 * The mutation's writes. One the server refuses (MutationRejected: another workspace's vehicle, a
 * bad input) or cannot apply (a bug) is processed without effects, and `refuse` puts it in the
 * push's answer with why: the browser shows a toast and its next pull undoes the optimistic change
 * (issue 39: an inspection used to vanish here without a word). An unknown name (a newer build's
 * mutation) is not refused: the page reloads into that build.
 */
async function runMutation(
  db: Db,
  workspaceId: string,
  mutation: Mutation,
  caller: MutationCaller,
  refuse: (message: string) => void,
): Promise<BatchItem<"sqlite">[]> {
  const name = mutation.name as (typeof mutationNames)[number];
  if (!mutationNames.includes(name)) {
    console.warn(`push: unknown mutation ${mutation.name}`);
    return [];
  }
  try {
    return await serverMutators[name](db, workspaceId, mutation.args, caller);
  } catch (error) {
    if (error instanceof MutationRejected) {
      console.warn(`push: ${mutation.name} #${mutation.id} refused: ${error.message}`);
      refuse(sentence(error.message));
      return [];
    }
    if (isTransient(error)) throw error;
    // A bug or an input the mutator did not expect: processed without effects ("error mode").
    console.error(
      `push: ${mutation.name} #${mutation.id} of ${mutation.clientID} threw, recorded without its effects:`,
      error,
    );
    refuse(COULD_NOT_APPLY);
    return [];
  }
}

/** Mutators word refusals for logs ("no such vehicle in this workspace"); the toast starts with a capital. */
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/**
 * Aborts the batch unless the client's last mutation id is still `expected`: when it is not, this
 * re-inserts the existing row, and the primary-key violation rolls the whole batch back. For a
 * client that had no row, any row at all means another request created it first.
 */
function guardLastMutationId(db: Db, clientId: string, expected: number, existed: boolean) {
  return db.insert(replicacheClients).select(
    db
      .select(getTableColumns(replicacheClients))
      .from(replicacheClients)
      .where(
        existed
          ? and(eq(replicacheClients.id, clientId), ne(replicacheClients.lastMutationId, expected))
          : eq(replicacheClients.id, clientId),
      ),
  );
}
