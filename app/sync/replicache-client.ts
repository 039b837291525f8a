import type { MutatorDefs, PullResponseV1, PushResponse } from "replicache";
import { ReplicacheImpl } from "replicache/impl";
import { mutators, type Mutators } from "../../shared/sync/mutators";
import type { RefusedMutation } from "../../shared/account/roles";
import { SCHEMA_VERSION, type PullAnswer } from "../../shared/sync/sync-protocol";
import { storeName } from "./store-name";
import { outcomeOf, type SyncHealth } from "./sync-health";

/**
 * Replicache's implementation class, which the `Replicache` wrapper only forwards to: it is the one
 * that lets the sync worker write an edit to IndexedDB before the page acknowledges it (`persist`,
 * docs/decisions/0074). Everything else is the same object.
 */
export type Rep = ReplicacheImpl<Mutators>;

interface ReplicacheOptions {
  viewerId: string;
  workspaceId: string;
  token: string;
  /** After a 401: the token to go on with, or null when the session is gone. */
  reauthenticate: () => Promise<string | null>;
  health: SyncHealth;
  /** The build's mutator list (a test may start a client with another one, as a later deploy would). */
  mutatorDefs?: MutatorDefs;
  /** An incremental pull over the room's socket, or null: then it goes over HTTP (app/sync/socket-pull.ts). */
  pullOverSocket?: (body: { cookie?: unknown }) => Promise<PullAnswer | null>;
  /** The server wants a newer app, or the client state is gone: the page should load again. */
  onReloadNeeded: () => void;
  /** The server refused pushed mutations for the viewer's role (recorded without effects; the next pull reverts them). */
  onRefused?: (refused: RefusedMutation[]) => void;
}

/**
 * One local store per viewer and workspace (docs/decisions/0003-sync.md): its name is the viewer
 * id with the workspace id, so switching workspaces never mixes two workspaces' data in one
 * IndexedDB. Settings from docs/product.md section 9 where Replicache exposes them. Runs in the sync
 * worker (docs/decisions/0015), off the page's main thread.
 */
export function createReplicache({
  viewerId,
  workspaceId,
  token,
  reauthenticate,
  health,
  mutatorDefs = mutators,
  pullOverSocket,
  onReloadNeeded,
  onRefused,
}: ReplicacheOptions): Rep {
  const rep: Rep = new ReplicacheImpl<Mutators>({
    name: storeName(viewerId, workspaceId),
    schemaVersion: SCHEMA_VERSION,
    mutators: mutatorDefs as Mutators,
    auth: `Bearer ${token}`,
    pullInterval: 60_000,
    pushDelay: 10,
    requestOptions: { minDelayMs: 30, maxDelayMs: 60_000 },
    // docs/product.md: clients idle for 7 days are collected. The 60 s heartbeat and the 5-minute client,
    // group and mutation-recovery checks are Replicache 15's own fixed defaults.
    clientMaxAgeMs: 7 * 24 * 60 * 60 * 1000,
    // Replicache's own HTTP requests, observed: "offline" and "refused by the server" differ.
    puller: async (body, requestID) => {
      const overSocket = await pullOverSocket?.(body);
      const { httpRequestInfo, response } = overSocket
        ? observed(overSocket, health)
        : await syncRequest("/api/sync/pull", body, requestID, rep.auth, health);
      return { httpRequestInfo, response: response as PullResponseV1 | undefined };
    },
    pusher: async (body, requestID) => {
      const { httpRequestInfo, response } = await syncRequest("/api/sync/push", body, requestID, rep.auth, health);
      return { httpRequestInfo, response: pushAnswered(response, rep, onRefused) };
    },
    // No secondary index: telemetry/{vehicleId} is keyed by the vehicle already (docs/decisions/0013).
  });
  // A 401 asks for new auth; Replicache retries up to 8 times with what this returns, and stops
  // on null (the session is gone: the session check has signed the user out by then).
  rep.getAuth = async () => {
    const current = await reauthenticate();
    return current ? `Bearer ${current}` : null;
  };
  // The server wants a newer app (schema or protocol), or the client state is gone: load the page
  // again (the page does it at most once a minute, so a disagreement cannot become a reload loop).
  // Another tab running a newer build (it forked a new client group) is no reason: this tab's
  // group still syncs through the server, and a reload would throw away what the user is typing;
  // the next page load brings the new build.
  rep.onUpdateNeeded = (reason) => {
    if (reason.type !== "NewClientGroup") onReloadNeeded();
  };
  rep.onClientStateNotFound = onReloadNeeded;
  serializePersists(rep);
  return rep;
}

/**
 * Replicache persists on its own timer (about a second after a change) and asserts that two
 * persists never overlap; the sync worker also persists each edit at once, before the page shows
 * it. Both go through this one chain: the timer's call looks `persist` up on the instance.
 */
function serializePersists(rep: Rep) {
  const persist = rep.persist.bind(rep);
  let last: Promise<void> = Promise.resolve();
  rep.persist = () => {
    const run = last.then(persist, persist);
    last = run.catch(() => undefined);
    return run;
  };
}

/**
 * What Replicache should make of a push answer: ours is `{}` when all is well, and only error
 * objects are a PushResponse. Refused mutations are told to the page, and the store pulls at once
 * so their optimistic changes go back (nobody is poked for a refusal).
 */
function pushAnswered(
  response: unknown,
  rep: Rep,
  onRefused: ReplicacheOptions["onRefused"],
): PushResponse | undefined {
  const refused = refusedIn(response);
  if (refused.length) {
    onRefused?.(refused);
    setTimeout(() => void rep.pull(), 0);
  }
  return response && typeof response === "object" && "error" in response ? (response as PushResponse) : undefined;
}

/** The push answer's `refused` list (docs/decisions/0018), tolerating any other shape. */
function refusedIn(response: unknown): RefusedMutation[] {
  const list = response && typeof response === "object" ? (response as { refused?: unknown }).refused : undefined;
  return Array.isArray(list)
    ? list.filter((r): r is RefusedMutation => typeof (r as RefusedMutation | null)?.message === "string")
    : [];
}

interface Observed {
  httpRequestInfo: { httpStatusCode: number; errorMessage: string };
  response: unknown;
}

async function syncRequest(
  url: string,
  body: unknown,
  requestID: string,
  auth: string,
  health: SyncHealth,
): Promise<Observed> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: auth, "X-Replicache-RequestID": requestID },
      body: JSON.stringify(body),
    });
  } catch (error) {
    health.record("offline");
    throw error;
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = res.status === 200 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return observed({ status: res.status, body: res.status === 200 ? json : text }, health);
}

/** Records what an answer says about the server's willingness, and puts it as Replicache wants it. */
function observed({ status, body }: PullAnswer, health: SyncHealth): Observed {
  const outcome = outcomeOf(status, body);
  if (outcome) health.record(outcome);
  return {
    httpRequestInfo: {
      httpStatusCode: status,
      errorMessage: status === 200 ? "" : typeof body === "string" ? body : JSON.stringify(body),
    },
    response: status === 200 ? body : undefined,
  };
}

/**
 * The number of local edits the server has not confirmed. Replicache reads them without waiting
 * for the store to finish opening, which throws "Missing head main" on a fresh page: a query first
 * waits until it is open. A store closed meanwhile has nothing to report.
 */
export async function pendingMutationCount(rep: Rep): Promise<number | null> {
  try {
    if (rep.closed) return null;
    await rep.query(() => null);
    if (rep.closed) return null;
    return (await rep.experimentalPendingMutations()).length;
  } catch (error) {
    if (rep.closed) return null;
    throw error;
  }
}
