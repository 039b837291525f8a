import type { Connection } from "partyserver";
import { POKE_MESSAGE } from "../../shared/sync/room-protocol";
import type { Db } from "../../db/client";
import type { RoomSync, SharedReads } from "../room-sync";
import { LiveFleet } from "../live-fleet/live-fleet";
import { d1LegacyPositions } from "../positions/legacy";
import { PositionStore } from "../positions/store";
import { RoomAlarm } from "../alarm/room-alarm";
import { objectTasks } from "../alarm/object-tasks";
import type { DueNoticeCheck } from "../due-notices/due-notice-task";
import { FoldContext } from "./fold-context";
import type { CustomerMessageSend } from "../customer-messages/customer-message-task";
import { RoomFlush } from "./flush";
import { PokePacer } from "./poke-pacer";
import { RoomPositions } from "./positions";
import { ShareViews } from "./share-views";
import { RoomSockets, type SocketOwner } from "./sockets";

/** What the parts need of the Durable Object that hosts them. */
export interface PartsHost<Changes> {
  workspaceId: string;
  storage: DurableObjectStorage;
  positionsBucket: R2Bucket;
  db(): Db;
  sync: RoomSync<Changes>;
  connections(): Iterable<Connection<SocketOwner>>;
  broadcast(message: string): void;
  /** The Worker's check of the workspace's service schedules (party/due-notices/). */
  checkDueNotices: DueNoticeCheck;
  /** The Worker's sender of the workspace's queued customer messages (party/customer-messages/). */
  sendCustomerMessages: CustomerMessageSend;
}

export const logged = (what: string) => (error: unknown) => console.error(`${what} failed:`, error);

/**
 * The workspace object's parts, each with one job, wired to each other here and nowhere else
 * (docs/decisions/0058): the live fleet and its flush, the sockets, the one poke pacer, the shared
 * pull reads, the share views, the fold's context, the positions, and the alarm over their tasks
 * and the object's own writes (beacon silence, stop addresses, service due notices).
 */
export function roomParts<Changes>(host: PartsHost<Changes>) {
  const { workspaceId, storage, db, sync } = host;
  // Opened on first use (it creates its tables): a share page's poll or a socket never needs it.
  let opened: PositionStore | null = null;
  const store = () =>
    (opened ??= new PositionStore(storage, host.positionsBucket, workspaceId, d1LegacyPositions(db(), workspaceId)));
  const fleet = new LiveFleet(storage, workspaceId, db, store);
  const sockets = new RoomSockets({ workspaceId, db, sync, connections: host.connections });
  /**
   * With sockets open, what is pending goes to D1 first and the poke after it: the pulls it starts
   * then read D1 at once instead of each waiting for a flush (at most once per poke interval).
   */
  const pacer = new PokePacer(async () => {
    if (sockets.open) await flush.settle().catch(logged("flush before a poke"));
    host.broadcast(POKE_MESSAGE);
  });
  const pokeWillFlush = () => pacer.waiting && sockets.open;
  const flush: RoomFlush = new RoomFlush({
    fleet: () => fleet,
    flushed: () => reads.invalidate(),
    pagesOpen: () => sockets.open,
    pokeIntervalMs: () => pacer.intervalMs,
    pokeWillFlush,
  });
  // A pull first writes what the room has not flushed yet, unless a poke waiting to go out will
  // (then it is pulled after that poke). A pull never fails for a flush: D1 is read as it is.
  const reads: SharedReads<Changes> = sync.share(async (id, since) => {
    if (!pokeWillFlush()) await flush.settle().catch(logged("flush before a pull"));
    return sync.readChanges(db(), id, since);
  });
  const positions: RoomPositions = new RoomPositions(store, () => alarm.schedule());
  const context = new FoldContext(storage, workspaceId, db, (t) => writes.customerMessages.noticed(t));
  // The cron's old writes (ADR 0059, 0066: silence, stop addresses, due notices); customer messages (ADR 0085).
  const writes = objectTasks({
    ...host, // its workspace, db, due notices' check and customer messages' sender
    schedule: () => alarm.schedule(),
    fleet: () => fleet,
    rules: () => context.rules(),
    settle: () => flush.settle(),
    announce: async () => {
      reads.invalidate();
      pacer.poke();
    },
  });
  const alarm: RoomAlarm = new RoomAlarm(storage, [flush, sockets, positions, ...writes.all]);
  return {
    fleet,
    sockets,
    pacer,
    flush,
    reads,
    positions,
    alarm,
    dueNotices: writes.dueNotices,
    shares: new ShareViews(db, workspaceId, (vehicleId) => fleet.vehicle(vehicleId)?.latest),
    context,
  };
}

export type RoomParts<Changes> = ReturnType<typeof roomParts<Changes>>;
