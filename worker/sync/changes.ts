import { and, eq, getTableColumns, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { issueChangeQueries } from "./issue-entities";
import { maintenanceChangeQueries } from "./maintenance-entities";
import { fuelChangeQuery } from "./fuel-entities";
import { costChangeQueries } from "./cost-entities";
import { jobChangeQuery } from "./jobs-entities";
import { workOrderChangeQueries } from "./work-order-entities";
import {
  alertReads,
  alertRules,
  alerts,
  drivers,
  places,
  replicacheClientGroups,
  replicacheClients,
  telemetry,
  vehicleEvents,
  vehicles,
  workspaces,
} from "../../db/schema";

/** What a pull needs to know about the workspace to decide whether a cookie can be diffed from (docs/decisions/0003-sync.md). */
export type WorkspaceSyncState = { version: number; syncEpoch: string; tombstoneFloor: number; acks: number };

/**
 * Everything of a workspace stamped after `since`, the part of a pull answer that is the same for
 * every client at that cookie: the workspace's sync state, its rows (tombstones included, each with
 * its `createdVersion`, so each pull decides for its own cookie whether the client can hold the row
 * and needs a `del`), and the last mutation ids of ALL its clients changed since (each pull keeps
 * its own group's). D1 runs a batch as one transaction: a consistent snapshot at `workspace.version`.
 * `live` leaves tombstones out: a full answer (`clear`, then everything) has no use for them.
 */
export async function readChanges(
  db: Db,
  workspaceId: string,
  since: number,
  opts: { live?: boolean } = {},
): Promise<Changes> {
  // Most writes of a busy workspace are its object's flushes, which write only the tables every
  // pull reads (LIVE_SYNCED_TABLES): an incremental read asks for those and the workspace's row
  // first, and for everything only when the row says something else was written since the cookie
  // (bumpLiveVersion). One transaction either way, so the answer is one consistent snapshot.
  if (since >= 0 && !opts.live) {
    const [ws, vehicleRows, telemetryRows, eventRows, alertRows, jobRows] = await db.batch([
      workspaceQuery(db, workspaceId),
      ...liveQueries(db, workspaceId, since, false),
    ]);
    if (ws[0] && ws[0].flushedVersion === ws[0].version && ws[0].editVersion <= since) {
      const live = { vehicleRows, telemetryRows, eventRows, alertRows, jobRows };
      return { ...NOTHING_EDITED, workspace: syncStateOf(ws), ...live };
    }
  }
  return readAll(db, workspaceId, since, opts.live ?? false);
}

async function readAll(db: Db, workspaceId: string, since: number, live: boolean) {
  const [
    ws,
    vehicleRows,
    telemetryRows,
    eventRows,
    clientRows,
    placeRows,
    ruleRows,
    alertRows,
    readRows,
    driverRows,
    issueRows,
    commentRows,
    scheduleRows,
    formRows,
    entryRows,
    inspectionRows,
    fuelEntryRows,
    expenseRows,
    renewalRows,
    jobRows,
    workOrderRows,
    workOrderLineRows,
    partRows,
    vendorRows,
  ] = await db.batch(changeQueries(db, workspaceId, since, live));
  return {
    workspace: syncStateOf(ws),
    vehicleRows,
    telemetryRows,
    eventRows,
    clientRows,
    placeRows,
    ruleRows,
    alertRows,
    readRows,
    driverRows,
    issueRows,
    commentRows,
    scheduleRows,
    formRows,
    entryRows,
    inspectionRows,
    fuelEntryRows,
    expenseRows,
    renewalRows,
    jobRows,
    workOrderRows,
    workOrderLineRows,
    partRows,
    vendorRows,
  };
}

/** What a pull needs of the workspace's row (a workspace with none reads as never written). */
function syncStateOf([row]: WorkspaceSyncState[]): WorkspaceSyncState {
  const { version, syncEpoch, tombstoneFloor, acks } = row ?? { version: 0, syncEpoch: "", tombstoneFloor: 0, acks: 0 };
  return { version, syncEpoch, tombstoneFloor, acks };
}

/** The workspace's sync state, and the version of its last write that was not a flush. */
function workspaceQuery(db: Db, workspaceId: string) {
  return db
    .select({
      version: workspaces.version,
      syncEpoch: workspaces.syncEpoch,
      tombstoneFloor: workspaces.tombstoneFloor,
      acks: workspaces.syncAcks,
      editVersion: workspaces.editVersion,
      flushedVersion: workspaces.flushedVersion,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
}

type SyncedTable = typeof vehicles | typeof telemetry | typeof vehicleEvents | typeof drivers | AlertTable;
function changedIn(workspaceId: string, since: number, live: boolean) {
  return <T extends SyncedTable>(t: T) =>
    live
      ? and(eq(t.workspaceId, workspaceId), gt(t.version, since), eq(t.deleted, false))
      : and(eq(t.workspaceId, workspaceId), gt(t.version, since));
}

/** The tables the object's flush writes (LIVE_SYNCED_TABLES in db/live-tables.ts), in that order. */
function liveQueries(db: Db, workspaceId: string, since: number, live: boolean) {
  const changed = changedIn(workspaceId, since, live);
  return [
    db.select().from(vehicles).where(changed(vehicles)),
    db.select().from(telemetry).where(changed(telemetry)),
    db.select().from(vehicleEvents).where(changed(vehicleEvents)),
    db.select().from(alerts).where(changed(alerts)),
    // a job's status, ETA and late, as the object's job tracking folds them (docs/decisions/0055)
    jobChangeQuery(db, workspaceId, since, live),
  ] as const;
}

/** The statements of `readAll`'s one batch, in the order it names their answers. */
function changeQueries(db: Db, workspaceId: string, since: number, live: boolean) {
  const changed = changedIn(workspaceId, since, live);
  const [vehicleQuery, telemetryQuery, eventQuery, alertQuery, jobQuery] = liveQueries(db, workspaceId, since, live);
  return [
    workspaceQuery(db, workspaceId),
    vehicleQuery,
    telemetryQuery,
    eventQuery,
    db
      .select(getTableColumns(replicacheClients))
      .from(replicacheClients)
      .innerJoin(replicacheClientGroups, eq(replicacheClientGroups.id, replicacheClients.clientGroupId))
      .where(and(eq(replicacheClientGroups.workspaceId, workspaceId), gt(replicacheClients.version, since))),
    // places and alerts (docs/decisions/0019)
    db.select().from(places).where(changed(places)),
    db.select().from(alertRules).where(changed(alertRules)),
    alertQuery,
    db.select().from(alertReads).where(changed(alertReads)),
    db.select().from(drivers).where(changed(drivers)),
    // issues and their comments (docs/decisions/0030)
    ...issueChangeQueries(db, workspaceId, since, live),
    // service schedules and entries, inspection forms and inspections (docs/decisions/0033)
    ...maintenanceChangeQueries(db, workspaceId, since, live),
    // fill-ups (docs/decisions/0045)
    fuelChangeQuery(db, workspaceId, since, live),
    // expenses and renewals (docs/decisions/0049)
    ...costChangeQueries(db, workspaceId, since, live),
    // jobs (docs/decisions/0052), planned here and tracked by the flush
    jobQuery,
    // work orders, their lines, parts and vendors (docs/decisions/0087)
    ...workOrderChangeQueries(db, workspaceId, since, live),
  ] as const;
}
type AlertTable = typeof places | typeof alertRules | typeof alerts | typeof alertReads;
export type Changes = Awaited<ReturnType<typeof readAll>>;

/** The edited tables of an answer when nothing but flushes was written since its cookie. */
const NOTHING_EDITED = {
  clientRows: [],
  placeRows: [],
  ruleRows: [],
  readRows: [],
  driverRows: [],
  issueRows: [],
  commentRows: [],
  scheduleRows: [],
  formRows: [],
  entryRows: [],
  inspectionRows: [],
  fuelEntryRows: [],
  expenseRows: [],
  renewalRows: [],
  workOrderRows: [],
  workOrderLineRows: [],
  partRows: [],
  vendorRows: [],
} satisfies Omit<Changes, "workspace" | "vehicleRows" | "telemetryRows" | "eventRows" | "alertRows" | "jobRows">;

/** Where a pull gets the shared part of an incremental answer. */
export type ChangeSource = (workspaceId: string, since: number) => Promise<Changes>;

/** The part of `changes` (read since an earlier cookie) that is newer than `since`: what reading since `since` would give. */
export function narrow(changes: Changes, since: number): Changes {
  const newer = <R extends { version: number }>(rows: R[]) => rows.filter((r) => r.version > since);
  return {
    workspace: changes.workspace,
    vehicleRows: newer(changes.vehicleRows),
    telemetryRows: newer(changes.telemetryRows),
    eventRows: newer(changes.eventRows),
    clientRows: newer(changes.clientRows),
    driverRows: newer(changes.driverRows),
    placeRows: newer(changes.placeRows),
    ruleRows: newer(changes.ruleRows),
    alertRows: newer(changes.alertRows),
    readRows: newer(changes.readRows),
    issueRows: newer(changes.issueRows),
    commentRows: newer(changes.commentRows),
    scheduleRows: newer(changes.scheduleRows),
    formRows: newer(changes.formRows),
    entryRows: newer(changes.entryRows),
    inspectionRows: newer(changes.inspectionRows),
    fuelEntryRows: newer(changes.fuelEntryRows),
    expenseRows: newer(changes.expenseRows),
    renewalRows: newer(changes.renewalRows),
    jobRows: newer(changes.jobRows),
    workOrderRows: newer(changes.workOrderRows),
    workOrderLineRows: newer(changes.workOrderLineRows),
    partRows: newer(changes.partRows),
    vendorRows: newer(changes.vendorRows),
  };
}

/**
 * The shared part of incremental answers, read once per write instead of once per client
 * (docs/decisions/0013). Lives in the workspace's room, which hears `poke()` after every committed
 * write: a poke starts a new epoch and drops what was read before it, so a read is only reused by
 * pulls that arrive before the next write is announced. A client that gets a snapshot older than
 * a write it raced with is poked for that write and pulls again.
 *
 * Per workspace, the widest read of the epoch is kept (the oldest cookie asked about); a pull from
 * a newer cookie is answered by narrowing it to the rows stamped after that cookie, so clients
 * whose cookies differ still share one read. Keyed by workspace, so a room can never hand one
 * workspace's rows to another's pull.
 */
export class SharedChanges {
  static readonly MAX_WORKSPACES = 32;
  #epoch = 0;
  readonly #memo = new Map<string, { epoch: number; since: number; changes: Promise<Changes> }>();

  constructor(private readonly read: ChangeSource) {}

  /** A write in the workspace committed: nothing read before now may be reused. */
  invalidate() {
    this.#epoch++;
    this.#memo.clear();
  }

  async since(workspaceId: string, since: number): Promise<Changes> {
    const hit = this.#memo.get(workspaceId);
    if (hit && hit.epoch === this.#epoch && hit.since <= since) {
      const changes = await hit.changes;
      return hit.since === since ? changes : narrow(changes, since);
    }
    const changes = this.read(workspaceId, since);
    if (!this.#memo.has(workspaceId) && this.#memo.size >= SharedChanges.MAX_WORKSPACES) {
      this.#memo.delete(this.#memo.keys().next().value!);
    }
    this.#memo.set(workspaceId, { epoch: this.#epoch, since, changes });
    // A failed read is not kept: the next pull reads again.
    changes.catch(() => {
      if (this.#memo.get(workspaceId)?.changes === changes) this.#memo.delete(workspaceId);
    });
    return changes;
  }
}
