import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { HistoryPoint } from "../shared/fleet/vehicle-history";
import { database } from "../db/client";
import type { RoomSync } from "./room-sync";
import type { WorkspaceChange } from "./workspace-change";
import type { IngestAnswer, LiveOptions } from "./live-fleet/live-fleet";
import type { IngestRequest } from "../domain/fold/ingest-request";
import { FLUSH_MS } from "./room/flush";
import { logged, roomParts, type RoomParts } from "./room/room-parts";
import type { HistoryShape } from "./room/positions";
import type { ShareViewAnswer } from "./room/share-views";
import { answerSocketMessage } from "./room/socket-pulls";
import type { SocketOwner } from "./room/sockets";
import type { AlarmWake } from "./alarm/alarm-task";
import type { DueNoticeCheck } from "./due-notices/due-notice-task";
import type { CustomerMessageSend } from "./customer-messages/customer-message-task";

/**
 * The workspace's Durable Object (one per workspace, named by its id; docs/decisions/0016, 0023,
 * 0058): a small router over parts with one job each (party/room/room-parts.ts). The Worker reaches it
 * only through worker/workspace-object.ts: reports to `ingest`, every change to `changed` (the one
 * announcer), pulls to `changesSince`, share pages to `shareView`, history to `positionHistory`,
 * the cron's wake to `runAlarmTasks`. The Worker exports the concrete class (party/room-sync.ts).
 */
export abstract class FleetRoom<Changes = unknown> extends Server<Cloudflare.Env> {
  static override options = { hibernate: true }; // an idle room with open sockets may be evicted, keeping them
  /** The sync server and sessions, and the check of service schedules (party/due-notices/), as the Worker gives them. */
  protected abstract readonly sync: RoomSync<Changes>;
  protected abstract readonly checkDueNotices: DueNoticeCheck;
  /** The Worker's sender of the workspace's queued customer messages (party/customer-messages/). */
  protected abstract readonly sendCustomerMessages: CustomerMessageSend;
  #madeParts: RoomParts<Changes> | null = null;

  /** The parts, made on first use (the room's name is known only then). */
  get #parts(): RoomParts<Changes> {
    return (this.#madeParts ??= roomParts({
      workspaceId: this.name,
      storage: this.ctx.storage,
      positionsBucket: this.env.POSITIONS,
      // Asked for at each use: database() keeps one per binding (the development meter's while it counts).
      db: () => database(this.env.DB),
      sync: this.sync,
      connections: () => this.getConnections<SocketOwner>(),
      broadcast: (message) => this.broadcast(message),
      checkDueNotices: (workspaceId, now) => this.checkDueNotices(workspaceId, now),
      sendCustomerMessages: (workspaceId, now) => this.sendCustomerMessages(workspaceId, now),
    }));
  }

  /**
   * Reports of this workspace's devices, a request per device (worker/fleet/ingest-batcher.ts): folded, stored
   * durably, answered; D1 follows within `flushMs` (0 writes through). Other workspaces' devices are unknown here.
   */
  async ingest(requests: IngestRequest[], options: LiveOptions & { flushMs?: number } = {}): Promise<IngestAnswer[]> {
    const { fleet, context, positions, flush, pacer, alarm } = this.#parts;
    const changesBefore = fleet.vehicleChanges;
    const answers = await fleet.ingest(requests, options, options.modules ?? (await context.modules()));
    if (answers.some((a) => a.ok)) positions.appended();
    const flushMs = options.flushMs ?? FLUSH_MS;
    // The answer does not depend on D1: the reports are durable here, a failed flush is retried.
    if (flushMs === 0) await flush.settle().catch(logged("flush to D1 (it is retried)"));
    flush.want(flushMs || FLUSH_MS);
    await alarm.schedule();
    pacer.reportRate.add(answers.flatMap((a) => (a.ok ? a.outcomes.filter((o) => o === "stored") : [])).length);
    // A late report re-folded in order changed trips and rollups too: open pages hear of it now.
    if (fleet.vehicleChanges > changesBefore) await this.changed({});
    return answers;
  }

  /** Writes everything pending to D1 now, before a reader that goes to D1 directly (party/room/flush.ts). */
  async settle(): Promise<void> {
    return this.#parts.flush.settle();
  }

  /**
   * The one announcer (party/workspace-change.ts): the Worker says what changed, and the object
   * brings its copies up to date before answering, so the next report anywhere is folded against
   * them whatever isolate made the edit; then it drops its shared reads and pokes, paced here alone.
   */
  async changed(change: WorkspaceChange): Promise<void> {
    const { fleet, context, sockets, shares, reads, pacer, flush } = this.#parts;
    if (change.devices?.vehicleIds.length) {
      await flush.settle();
      for (const vehicleId of change.devices.vehicleIds) fleet.forgetDevicesOf(vehicleId);
    }
    const timeZone = await context.changed(change);
    if (timeZone) fleet.setTimeZone(timeZone);
    if (change.sessions) sockets.closeSessions(change.sessions.endedHashes);
    if (change.members) sockets.closeUsers(change.members.removedUserIds);
    for (const tokenHash of change.shares?.endedTokenHashes ?? []) shares.forget(tokenHash);
    const poke = change.poke ?? true;
    // Before anything is sent: no pull that follows a poke may be answered from an older read.
    if (poke || change.readYourWrites) reads.invalidate();
    if (poke) pacer.poke();
  }

  /** The shared part of an incremental pull (worker/sync/pull.ts; docs/decisions/0013). */
  async changesSince(workspaceId: string, since: number): Promise<Changes> {
    return this.#parts.reads.since(workspaceId, since);
  }

  /** An open share page's poll (worker/api/shares.ts): about one D1 read a minute per link. */
  async shareView(tokenHash: string): Promise<ShareViewAnswer> {
    return this.#parts.shares.answer(tokenHash);
  }

  /** A vehicle's history for the history API. */
  async positionHistory(vehicleId: string, from: number, to: number, shape?: HistoryShape): Promise<HistoryPoint[]> {
    return this.#parts.positions.history(vehicleId, from, to, shape);
  }

  /** How many fixes of a vehicle are stored with device time in [from, to] (beacon health). */
  async positionCount(vehicleId: string, from: number, to: number): Promise<number> {
    return this.#parts.positions.count(vehicleId, from, to);
  }

  /** Deletes every position of this workspace (the workspace is being deleted). */
  async deleteAllPositions(): Promise<void> {
    return this.#parts.positions.deleteAll();
  }

  override async onConnect(connection: Connection<SocketOwner>, ctx: ConnectionContext) {
    if (!this.#parts.sockets.admit(connection, ctx)) return;
    // A page is open: the flush and the re-check come to the poke's pace.
    this.#parts.flush.want();
    await this.#parts.alarm.schedule();
  }

  override async onAlarm() {
    await this.#parts.alarm.ring();
  }

  /** The cron's wake of an object with due work it set no alarm for: silent beacons, service due (docs/decisions/0059, 0066). */
  async runAlarmTasks(now = Date.now(), wake: AlarmWake = {}): Promise<void> {
    if (wake.dueNotices) this.#parts.dueNotices.want(now);
    await this.#parts.alarm.ring(now);
  }

  override async onMessage(connection: Connection<SocketOwner>, message: string | ArrayBuffer | ArrayBufferView) {
    const { reads, sockets } = this.#parts;
    const room = {
      workspaceId: this.name,
      db: () => database(this.env.DB),
      sync: this.sync,
      changesSince: reads.since.bind(reads),
    };
    await answerSocketMessage(room, sockets, connection, message);
  }

  override onRequest(): Response {
    // Everything arrives over RPC from the Worker; nothing reaches the room over plain HTTP.
    return new Response("Not found", { status: 404 });
  }
}
