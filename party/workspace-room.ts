import { Server, type Connection, type ConnectionContext } from "partyserver";
import {
  encodeMessage,
  parseSocketPullRequest,
  POKE_MESSAGE,
  SESSION_ENDED_CLOSE_CODE,
  SOCKET_PULL_MAX_BYTES,
  type SocketPullRequest,
} from "../shared/room-protocol";
import { database, type Db } from "../db/client";
import { AnswerOverHttp, type RoomSync, type SharedReads } from "./room-sync";
import { FLEET_MODULES } from "../domain/fleet-modules";
import { ObjectWatch } from "./alerts/workspace-watch";
import { DayPlans } from "./jobs/day-plans";
import type { WorkspaceChange } from "./workspace-change";
import { ShareViews, type ShareViewAnswer } from "./share-views";
import { LiveFleet, type BeaconReport, type IngestAnswer, type LiveOptions } from "./live-fleet/live-fleet";
import { takeMessage, TOO_MANY_MESSAGES } from "./message-rate";
import { ReportRate } from "./report-rate";
import { downsampleTrack } from "../shared/downsample";
import type { HistoryPoint } from "../shared/vehicle-history";
import type { StoredFix } from "./positions/codec";
import { d1LegacyPositions } from "./positions/legacy";
import { PACK_AFTER_MS, PositionStore, type FixKey, type PositionRow } from "./positions/store";
import type { AlarmJob } from "./alarm/alarm-job";
import { objectJobs } from "./alarm/object-jobs";
import { earliestDue, runDueJobs } from "./alarm/run-jobs";

/**
 * How often a room with open sockets re-checks their sessions: revocations close sockets at once
 * (the Worker tells the room); this catches what nobody announces, a session reaching its idle or
 * absolute limit, a member removed from the workspace, or a revocation notice that was lost. Pulls
 * ride on the socket (docs/decisions/0013), so this bounds how long a session that ended unannounced
 * can still pull: one query per room a minute, however many sockets and reports.
 */
export const SOCKET_RECHECK_MS = 60_000;

/** Whose socket it is, as the Worker vouched for it (worker/room-entry.ts); kept across hibernation. */
interface SocketOwner {
  sessionHash: string;
  userId: string;
}

/**
 * One room per workspace (the room name is the workspace id). Browsers connect through
 * partysocket after the Worker has checked their session token (worker/room-entry.ts); the Worker
 * calls `poke()` after every write in the workspace, and the room tells every connection to pull.
 *
 * Pokes are coalesced: the first after a quiet spell goes out at once (latency matters), later
 * ones within POKE_INTERVAL_MS are folded into a single trailing poke, so a fleet reporting every
 * second cannot make clients pull hundreds of times a second, and the last change is never lost.
 */
export const POKE_INTERVAL_MS = 250;
/** The longest pokes of a busy fleet are coalesced over (see pokeIntervalMs). */
export const BIG_FLEET_POKE_INTERVAL_MS = 2_000;

/**
 * How long pokes are coalesced over, by the reports the workspace stores a second now (ReportRate):
 * 10 ms per report a second, from POKE_INTERVAL_MS to BIG_FLEET_POKE_INTERVAL_MS (a quarter second
 * up to 25 reports a second, 125 vehicles at 5 s; 2 s from 200, 1,000 vehicles). Each poke with a
 * page open costs D1 a flush and one shared read whatever the fleet's size (about 13 statements),
 * and a busy fleet is never quiet, so it pokes at this pace: a 1,000-vehicle fleet at 5 s costs
 * about 7 statements a second with pages open instead of 55 (issue 35's target: 10), its map
 * moving every 2 s; a small fleet's, or a big one's at night, still within a quarter second.
 */
export function pokeIntervalMs(reportsPerSecond: number): number {
  return Math.min(BIG_FLEET_POKE_INTERVAL_MS, Math.max(POKE_INTERVAL_MS, 10 * reportsPerSecond));
}

/**
 * How long reports wait in the room before they are written to D1 (docs/decisions/0016, part 5):
 * one D1 transaction per workspace per FLUSH_MS at most, however many vehicles report. Pulls do
 * not wait for it: a pull flushes what is pending first (see `#settle`). 0 writes through (tests).
 */
export const FLUSH_MS = 1_000;
/**
 * The flush's pace while no page of the workspace is open (issue 35: ≤ 2 D1 statements a second
 * for a workspace of 1,000 vehicles at 5 s; a flush is a handful of statements whatever it holds,
 * so the pace is what counts). Nothing waits for it: every reader that goes to D1 for what
 * ingestion derives (pulls, the Inbox, reports, beacon pages) settles first, and a page that
 * opens brings the pace back to FLUSH_MS.
 */
export const FLUSH_IDLE_MS = 10_000;
/**
 * A flush that failed (D1 unreachable) is tried again after FLUSH_RETRY_MS, doubling per failure
 * up to FLUSH_RETRY_MAX_MS, each wait jittered by ±50% (so the objects of a deployment do not come
 * back to D1 in step); what it holds stays durable here meanwhile.
 */
export const FLUSH_RETRY_MS = 1_000;
export const FLUSH_RETRY_MAX_MS = 16_000;

/** The wait before the next flush after `failures` failed ones in a row. */
export function flushBackoffMs(failures: number, random = Math.random()): number {
  return Math.min(FLUSH_RETRY_MAX_MS, FLUSH_RETRY_MS * 2 ** Math.max(0, failures - 1)) * (0.5 + random);
}

/** Which of a vehicle's history the caller wants (see positionHistory). */
export interface HistoryShape {
  newest?: number;
  maxRows?: number;
  maxPoints?: number;
}

/** How long the room remembers a revoked session, to refuse its sockets that were already on their way. */
const ENDED_MEMORY_MS = 10 * 60_000;

/**
 * The workspace's Durable Object: its live fleet, positions, sockets and pokes. Abstract over
 * the sync server it answers socket pulls with (party/room-sync.ts); the Worker exports the concrete class.
 */
export abstract class FleetRoom<Changes = unknown> extends Server<Cloudflare.Env> {
  // Hibernation lets an idle room with open sockets be evicted without dropping them.
  static override options = { hibernate: true };

  #lastPokeAt = 0;
  /** How busy the fleet is now: paces the pokes (pokeIntervalMs). */
  readonly #reportRate = new ReportRate();
  /** Sessions that pulled over their socket since the last re-check (their idle clock restarts then). */
  readonly #pulledSince = new Set<string>();
  /** Sessions revoked lately, by hash, with when the Worker said so. */
  readonly #recentlyEnded = new Map<string, number>();
  #trailing: ReturnType<typeof setTimeout> | null = null;
  /** The sync server and sessions, as the Worker gives them. */
  protected abstract readonly sync: RoomSync<Changes>;
  #shared: SharedReads<Changes> | null = null;
  #fleet: LiveFleet | null = null;
  #shares: ShareViews | null = null;
  #flushing: Promise<boolean> | null = null;
  /** Flushes failed in a row, and when the next may be tried (backoff: flushBackoffMs). */
  #flushFailures = 0;
  #flushRetryAt = 0;
  /** When the alarm is set for, as this instance set it (null: none). */
  #alarmAt: number | null | undefined = undefined;
  /** When the sockets are next re-checked (the alarm also serves the flush). */
  #recheckAt = 0;

  /** The workspace's live fleet (party/live-fleet/live-fleet.ts), loaded from this object's storage on first use. */
  get fleet(): LiveFleet {
    return (this.#fleet ??= new LiveFleet(
      this.ctx.storage,
      this.name,
      () => this.#db,
      () => this.#positions,
    ));
  }

  /** The D1 client, asked for at each use (database() keeps one per binding; the development meter's while it counts). */
  get #db(): Db {
    return database(this.env.DB);
  }

  /** What changed since a cookie, read once per write for all of the workspace's pulls (docs/decisions/0013). */
  get #changes(): SharedReads<Changes> {
    // A pull first writes what the room has not flushed yet: D1 then holds every acknowledged report.
    // If D1 refuses the flush, the pull still answers from D1 (without what is pending): a pull never
    // fails for a flush, and the alarm tries the flush again. While a poke is waiting to go out
    // (a busy fleet's), what is pending now is flushed by it and pulled after it: no flush here.
    return (this.#shared ??= this.sync.share(async (workspaceId, since) => {
      if (!this.#pokeWillFlush())
        await this.settle().catch((error: unknown) => console.error("flush before a pull failed:", error));
      return this.sync.readChanges(this.#db, workspaceId, since);
    }));
  }

  /**
   * Reports of this workspace's devices, one request per device, from the Worker's edge
   * (worker/fleet/ingest-batcher.ts): folded, stored durably here, answered; D1 follows within
   * `flushMs`. Devices of another workspace are unknown here whatever the caller says.
   */
  async ingest(requests: BeaconReport[][], options: LiveOptions & { flushMs?: number } = {}): Promise<IngestAnswer[]> {
    const modules = options.modules ?? [
      ...FLEET_MODULES,
      ...(await this.#watch.modules()),
      ...(await this.#jobModules()),
    ];
    const changesBefore = this.fleet.vehicleChanges;
    const answers = await this.fleet.ingest(requests, options, modules);
    if (answers.some((a) => a.ok)) this.#packingDue();
    const flushMs = options.flushMs ?? FLUSH_MS;
    // The answer does not depend on D1: the reports are durable here, a failed flush is retried.
    if (flushMs === 0)
      await this.settle().catch((error: unknown) => console.error("flush to D1 failed; it is retried:", error));
    await this.#scheduleAlarm(flushMs || FLUSH_MS);
    const stored = answers.reduce((n, a) => n + (a.ok ? a.outcomes.filter((o) => o === "stored").length : 0), 0);
    this.#reportRate.add(stored);
    // A late report re-folded in order changed trips and rollups too: open pages hear of it now,
    // not with the vehicle's next report.
    if (this.fleet.vehicleChanges > changesBefore) await this.poke();
    return answers;
  }

  /**
   * Writes everything pending to D1 now: before a pull reads D1, before the geocoder writes a
   * stop's address, and when the alarm fires. One flush at a time: a caller arriving during one
   * waits for it and then shares the next (callers waiting together start one flush, not one
   * each). While a failed flush's backoff runs, nothing is tried and this rejects at once (the
   * alarm retries when it ends): pulls and pokes meanwhile read D1 as it is instead of hammering
   * it. Resolved means D1 holds everything acknowledged before the call.
   */
  async settle(): Promise<void> {
    return this.#settle(false);
  }

  /** settle(); the alarm's own retry (`retrying`) is what the backoff waits for, so it is not held back by it. */
  async #settle(retrying: boolean): Promise<void> {
    // Never rejects before its caller has attached a handler (the runtime reports a promise that
    // rejects with none as unhandled, even if one is attached a moment later).
    await Promise.resolve();
    if (this.#flushing) await this.#flushing.catch(() => undefined);
    if (this.#flushing) return void (await this.#flushing);
    if (!this.fleet.hasPending()) return;
    if (!retrying && Date.now() < this.#flushRetryAt)
      throw new Error(`flush to D1 backing off after ${this.#flushFailures} failures; retried by the alarm`);
    const flushing = (this.#flushing = this.fleet.flush().finally(() => {
      if (this.#flushing === flushing) this.#flushing = null;
    }));
    try {
      if (await flushing) this.#changes.invalidate();
      this.#flushFailures = 0;
      this.#flushRetryAt = 0;
    } catch (error) {
      this.#flushFailures++;
      this.#flushRetryAt = Date.now() + flushBackoffMs(this.#flushFailures);
      throw error;
    }
  }

  /** The pending entries D1 refused and a flush set aside (newest first, with D1's error): for an operator. */
  async flushSetAside() {
    return this.fleet.setAside();
  }

  /** A vehicle's device id was rotated: its old id is unknown here from now on (its pending health is flushed first). */
  async forgetDevicesOf(vehicleId: string): Promise<void> {
    await this.changed({ devices: { vehicleIds: [vehicleId] }, poke: false });
  }

  #dayPlansStore: DayPlans | null = null;
  /** The day's jobs this workspace's vehicles are followed against (party/jobs/day-plans.ts). */
  get #dayPlans(): DayPlans {
    return (this.#dayPlansStore ??= new DayPlans(this.name, () => this.#db));
  }

  /** The jobs module, over the jobs of the days around today in the workspace's zone. */
  async #jobModules() {
    const { timeZone, rules } = await this.#watch.rows();
    return this.#dayPlans.modules(Date.now(), timeZone, rules);
  }

  #watchStore: ObjectWatch | null = null;
  /** The workspace's places, rules and time zone, held here (party/alerts/workspace-watch.ts). */
  get #watch(): ObjectWatch {
    return (this.#watchStore ??= new ObjectWatch(this.ctx.storage, this.name, () => this.#db));
  }

  /**
   * The one announcer (party/workspace-change.ts): the Worker says what a committed write changed,
   * and the object brings its own copies up to date before answering, so the next report anywhere
   * is folded against them whatever isolate made the edit.
   */
  async changed(change: WorkspaceChange): Promise<void> {
    if (change.devices?.vehicleIds.length) {
      await this.settle();
      for (const vehicleId of change.devices.vehicleIds) this.fleet.forgetDevicesOf(vehicleId);
    }
    if (change.places || change.rules || change.timeZone || change.tanks) {
      const rows = await this.#watch.reload().catch((error: unknown) => {
        // Marked stale: the next report tries D1 again (and folds with the stored copy meanwhile).
        console.error("changed: the watch's reload failed:", error);
        return null;
      });
      const timeZone = change.timeZone ?? rows?.timeZone;
      if (timeZone) this.fleet.setTimeZone(timeZone);
    }
    // Read again before the next report is folded; the timezone's change moves the days too, and
    // a place's change its jobs' outline (domain/jobs/area.ts).
    if (change.jobs || change.timeZone || change.places) this.#dayPlans.invalidate();
    for (const userId of change.members?.removedUserIds ?? []) await this.closeUser(userId);
    if (change.readYourWrites) this.#changes.invalidate();
    if (change.poke ?? true) await this.poke();
  }

  /** Called by the Worker over RPC after a committed write in this workspace. */
  async poke(): Promise<void> {
    // Before anything is sent: no pull that follows this poke may be answered from an older read.
    this.#changes.invalidate();
    const wait = this.#lastPokeAt + pokeIntervalMs(this.#reportRate.perSecond()) - Date.now();
    if (wait <= 0 && !this.#trailing) {
      void this.#send();
      return;
    }
    this.#trailing ??= setTimeout(
      () => {
        this.#trailing = null;
        void this.#send();
      },
      Math.max(wait, 0),
    );
  }

  override onConnect(connection: Connection<SocketOwner>, ctx: ConnectionContext) {
    const sessionHash = ctx.request.headers.get("x-fleet-session");
    const userId = ctx.request.headers.get("x-fleet-user");
    // Only the Worker's own check lets a socket in, and it always sets both; anything else is
    // refused. The check was made just before: a revocation since then has been announced here.
    if (!sessionHash || !userId || this.#recentlyEnded.has(sessionHash)) {
      connection.close(SESSION_ENDED_CLOSE_CODE, "session ended");
      return;
    }
    connection.setState({ sessionHash, userId });
    connection.send(encodeMessage({ type: "pulls-ready" }));
    void this.#scheduleAlarm();
  }

  /**
   * One alarm for three jobs: the flush of pending reports, the sockets' re-check and the
   * positions' maintenance, each when due. No job's failure skips another or ends the chain: each
   * is caught and logged, and the next alarm is always set (only a failure to set it throws, and
   * the runtime then retries this alarm).
   */
  override async onAlarm() {
    this.#alarmAt = null;
    // A poke waiting to go out to open pages flushes first anyway (unless a failed flush is being retried).
    if (!this.#pokeWillFlush() || this.#flushFailures)
      await this.#settle(true).catch((error: unknown) =>
        console.error(`flush to D1 failed (${this.#flushFailures} in a row); it is retried:`, error),
      );
    if (Date.now() >= this.#recheckAt) {
      this.#recheckAt = 0;
      // D1 unreachable: the sockets stay as they are until the next re-check (a minute).
      await this.recheckSockets().catch((error: unknown) => console.error("sockets' re-check failed:", error));
    }
    await this.#maintainPositionsIfDue();
    await runDueJobs(this.#jobs, Date.now());
    await this.#scheduleAlarm();
  }

  /** The object's jobs that were the cron's writes (party/alarm/object-jobs.ts, docs/decisions/0059). */
  #jobList: AlarmJob[] | null = null;
  get #jobs(): AlarmJob[] {
    return (this.#jobList ??= objectJobs({
      workspaceId: this.name,
      db: () => this.#db,
      fleet: () => this.fleet,
      rules: async () => (await this.#watch.rows()).rules,
      settle: () => this.settle(),
      announce: () => this.poke(),
    }));
  }

  /** Runs the jobs due now and sets the alarm for the next: the cron's wake of an object with due work, and development's "now". */
  async runAlarmJobs(now = Date.now()): Promise<void> {
    await runDueJobs(this.#jobs, now);
    await this.#scheduleAlarm();
  }

  /**
   * Closes the sockets whose session is no longer live in this workspace; answers how many. The
   * sessions that pulled over their socket since the last re-check had a use: their idle clock
   * restarts, as an HTTP pull's would.
   */
  async recheckSockets(): Promise<number> {
    const used = [...this.#pulledSince];
    this.#pulledSince.clear();
    if (used.length) await this.sync.touchSessions(this.#db, used);
    const owners = [...this.getConnections<SocketOwner>()].flatMap((c) => (c.state ? [c.state.sessionHash] : []));
    if (owners.length === 0) return 0;
    const live = await this.sync.liveSessionsIn(this.#db, this.name, owners);
    return this.#closeWhere((owner) => !live.has(owner.sessionHash));
  }

  /**
   * The alarm at the earliest of: the flush (`flushIn` from now, FLUSH_IDLE_MS with no page open) if anything is pending, the
   * sockets' re-check if any is open, the positions' maintenance when due.
   */
  async #scheduleAlarm(flushIn = FLUSH_MS) {
    const open = this.#hasConnections();
    if (open && !this.#recheckAt) this.#recheckAt = Date.now() + SOCKET_RECHECK_MS;
    const maintenance = this.#maintenanceAt();
    const jobsDue = await earliestDue(this.#jobs, Date.now());
    // With a page open each poke flushes first: the alarm need not flush more often than it pokes.
    const pace = Math.max(flushIn, open ? pokeIntervalMs(this.#reportRate.perSecond()) : FLUSH_IDLE_MS);
    const flushAt = Math.max(Date.now() + pace, this.#flushRetryAt);
    const times = [
      ...(open ? [this.#recheckAt] : []),
      ...(this.fleet.hasPending() ? [flushAt] : []),
      ...(maintenance === null ? [] : [maintenance]),
      ...(jobsDue === null ? [] : [jobsDue]),
    ];
    if (!times.length) return;
    const at = Math.min(...times);
    // Remembered, so a busy fleet's every call does not ask storage (undefined: not read yet).
    if (this.#alarmAt === undefined) this.#alarmAt = await this.ctx.storage.getAlarm();
    if (this.#alarmAt === null || this.#alarmAt > at) {
      await this.ctx.storage.setAlarm(at);
      this.#alarmAt = at;
    }
  }

  /** Called by the Worker after revoking sessions: their sockets close at once. */
  async closeSessions(sessionHashes: string[]): Promise<number> {
    const ended = new Set(sessionHashes);
    // A socket whose session the Worker checked just before the revocation may reach the room
    // just after this notice: it is refused on arrival (ENDED_MEMORY_MS is far longer than that gap).
    const now = Date.now();
    for (const [hash, at] of this.#recentlyEnded) if (now - at > ENDED_MEMORY_MS) this.#recentlyEnded.delete(hash);
    for (const hash of ended) this.#recentlyEnded.set(hash, now);
    return this.#closeWhere((owner) => ended.has(owner.sessionHash));
  }

  /** Called by the Worker when a member leaves the workspace: every socket of that user closes. */
  async closeUser(userId: string): Promise<number> {
    return this.#closeWhere((owner) => owner.userId === userId);
  }

  #closeWhere(ended: (owner: SocketOwner) => boolean): number {
    let closed = 0;
    for (const connection of this.getConnections<SocketOwner>()) {
      const owner = connection.state;
      if (!owner || ended(owner)) {
        connection.close(SESSION_ENDED_CLOSE_CODE, "session ended");
        closed++;
      }
    }
    return closed;
  }

  /**
   * The shared part of an incremental pull (worker/sync/pull.ts), over RPC from the Worker, which
   * has checked the session's workspace and addresses this room by it.
   */
  async changesSince(workspaceId: string, since: number): Promise<Changes> {
    return this.#changes.since(workspaceId, since);
  }

  /**
   * Drops the shared reads without telling browsers to pull: for changes they need not hear about
   * at once but that no later pull may miss (a push's own client confirming it, collected tombstones).
   */
  async forgetChanges(): Promise<void> {
    this.#changes.invalidate();
  }

  /** An open share page's poll (worker/api/shares.ts), answered from here: about one D1 read a minute per link (party/share-views.ts). */
  async shareView(tokenHash: string): Promise<ShareViewAnswer> {
    return this.#shareViews.answer(tokenHash);
  }

  /** A link was ended: its open pages say so at their next poll. */
  async forgetShare(tokenHash: string): Promise<void> {
    this.#shareViews.forget(tokenHash);
  }

  get #shareViews(): ShareViews {
    return (this.#shares ??= new ShareViews(
      () => this.#db,
      this.name,
      (vehicleId) => this.fleet.vehicle(vehicleId)?.latest,
    ));
  }

  override async onMessage(connection: Connection<SocketOwner>, message: string | ArrayBuffer | ArrayBufferView) {
    if (!takeMessage(connection)) return connection.close(TOO_MANY_MESSAGES, "Too many messages");
    const request = parseSocketPullRequest(message);
    const owner = connection.state;
    if (!request || !owner) return;
    const answer = await this.#answerSocketPull(owner, request);
    // The socket may have closed meanwhile (its session ended, the browser left): nobody to tell.
    if (connection.readyState === WebSocket.OPEN) connection.send(answer);
  }

  /**
   * An incremental pull over the socket (shared/room-protocol.ts, docs/decisions/0013), answered as the
   * HTTP route would for the socket's own session and this room's workspace (nothing in the message
   * can name another), from the room's shared read: no session lookup and, in the steady state, no
   * D1 statement of its own. What the socket should not carry goes back to HTTP: a first pull, a
   * reset (a full answer), an answer too large for a message, and a failure on our side.
   */
  async #answerSocketPull(owner: SocketOwner, { id, body }: SocketPullRequest): Promise<string> {
    const viaHttp = encodeMessage({ type: "pull", id, viaHttp: true });
    const cookie = typeof body === "object" && body !== null ? (body as { cookie?: unknown }).cookie : undefined;
    if (cookie === null || cookie === undefined) return viaHttp;
    try {
      const { status, body: answer } = await this.sync.answerPull(
        this.#db,
        { userId: owner.userId, workspaceId: this.name },
        body,
        (workspaceId, since) => this.#changes.since(workspaceId, since),
      );
      this.#pulledSince.add(owner.sessionHash);
      const patch = status === 200 ? (answer as { patch?: { op: string }[] }).patch : undefined;
      if (patch?.[0]?.op === "clear") return viaHttp;
      // Serialised once: measured, then sent as it is.
      const reply = encodeMessage({ type: "pull", id, status, body: answer });
      return new TextEncoder().encode(reply).byteLength > SOCKET_PULL_MAX_BYTES ? viaHttp : reply;
    } catch (error) {
      if (!(error instanceof AnswerOverHttp)) console.error("socket pull failed; the client pulls over HTTP:", error);
      return viaHttp;
    }
  }

  // ---------------------------------------------------------------- positions (party/positions/, docs/decisions/0023)

  #positionStore: PositionStore | null = null;
  get #positions(): PositionStore {
    this.#positionStore ??= new PositionStore(
      this.ctx.storage,
      this.env.POSITIONS,
      this.name,
      d1LegacyPositions(this.#db, this.name),
    );
    return this.#positionStore;
  }
  /** When the positions' maintenance is next due (null: nothing to do; undefined: ask the store, which reads a few rows). */
  #nextMaintenance: number | null | undefined = undefined;

  #maintenanceAt(): number | null {
    if (this.#nextMaintenance === undefined) this.#nextMaintenance = this.#positions.nextMaintenance(Date.now());
    return this.#nextMaintenance;
  }

  /** Fixes were appended: packing is due a minute later (no query on the ingestion path once known). */
  #packingDue() {
    const packAt = Date.now() + PACK_AFTER_MS;
    const due = this.#maintenanceAt();
    if (due === null || due > packAt) this.#nextMaintenance = packAt;
  }

  async #maintainPositionsIfDue() {
    try {
      const due = this.#maintenanceAt();
      if (due === null || Date.now() < due) return;
      await this.#positions.maintain(Date.now());
      this.#nextMaintenance = undefined;
    } catch (error) {
      // The flush and the sockets' re-check go on; maintenance is tried again a minute later.
      this.#nextMaintenance = Date.now() + 60_000;
      console.error("positions maintenance failed:", error);
    }
  }

  /**
   * Stores fixes of this workspace's vehicles directly (imports and tests; live reports are
   * appended by `ingest`, in the same commit as the vehicle's state): durable when this answers.
   */
  async appendPositions(rows: PositionRow[]): Promise<void> {
    this.#positions.append(rows);
    this.#packingDue();
    await this.#scheduleAlarm();
  }

  /** Which of these fixes are already stored (fixKey strings). */
  async storedPositions(keys: FixKey[]): Promise<string[]> {
    return this.#positions.storedKeys(keys);
  }

  /**
   * A vehicle's fixes in [from, to], oldest first, as the history API answers them: with `newest`,
   * only the newest that many; with `maxPoints`, the first `maxRows` downsampled for the screen
   * here, so only what is shown crosses the RPC.
   */
  async positionHistory(
    vehicleId: string,
    from: number,
    to: number,
    shape: HistoryShape = {},
  ): Promise<HistoryPoint[]> {
    const { newest, maxRows, maxPoints } = shape;
    const fixes =
      newest === undefined
        ? await this.#positions.read(vehicleId, from, to)
        : await this.#positions.latest(vehicleId, from, to, newest);
    const points = fixes
      .slice(0, maxRows)
      .map((f) => ({ t: f.recordedAt, speed: f.speed, fuel: f.fuel, lat: f.latitude, lng: f.longitude }));
    return maxPoints === undefined ? points : downsampleTrack(points, maxPoints);
  }

  /** A vehicle's fixes in [from, to] with every stored field, oldest first. */
  async readPositions(vehicleId: string, from: number, to: number): Promise<StoredFix[]> {
    return this.#positions.read(vehicleId, from, to);
  }

  /** How many fixes of a vehicle are stored with device time in [from, to] (beacon health). */
  async positionCount(vehicleId: string, from: number, to: number): Promise<number> {
    return this.#positions.count(vehicleId, from, to);
  }

  /** The positions' maintenance (pack, compact to R2, retention) now: the alarm's, also callable to run it at once. */
  async maintainPositions(now = Date.now()): Promise<void> {
    await this.#positions.maintain(now);
    this.#nextMaintenance = undefined;
    await this.#scheduleAlarm();
  }

  /** Deletes every position of this workspace (the workspace is being deleted). */
  async deleteAllPositions(): Promise<void> {
    await this.#positions.deleteAll();
    this.#nextMaintenance = undefined;
  }

  /** This workspace's position retention in months (default 13); the next maintenance applies it. */
  async setPositionRetention(months: number): Promise<void> {
    this.#positions.setRetentionMonths(months);
    this.#nextMaintenance = undefined;
    await this.#scheduleAlarm();
  }

  override onRequest(): Response {
    // Pokes arrive over RPC from the Worker; nothing reaches the room over plain HTTP.
    return new Response("Not found", { status: 404 });
  }

  /**
   * With sockets open, what is pending goes to D1 first and the poke after it: the pulls it starts
   * then read D1 at once instead of each waiting for a flush, and report -> screen costs one D1
   * write as it did when ingestion wrote D1 itself. Pokes are coalesced (pokeIntervalMs), so
   * this flushes at most four times a second, once in 2 s for a busy fleet; with no socket open
   * the alarm's pace holds.
   */
  async #send() {
    this.#lastPokeAt = Date.now();
    if (this.#hasConnections())
      await this.settle().catch((error: unknown) => console.error("flush before a poke failed:", error));
    this.broadcast(POKE_MESSAGE);
  }

  /** A poke is waiting to go out to open pages, and will flush what is pending before it does (`#send`). */
  #pokeWillFlush() {
    return this.#trailing !== null && this.#hasConnections();
  }

  #hasConnections() {
    return this.getConnections()[Symbol.iterator]().next().done === false;
  }
}
