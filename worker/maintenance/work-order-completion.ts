import { and, eq, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunkRows, inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { issues, parts, serviceEntries, serviceSchedules, vendors, workOrders, workspaces } from "../../db/schema";
import { restartedBasis } from "../../shared/maintenance/service";
import {
  partQuantities,
  workOrderTotals,
  type completeWorkOrderBody,
  type WorkOrderCompletion,
} from "../../shared/maintenance/work-orders";
import { dayOf } from "../../shared/units/time-zone";
import type { z } from "zod";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { foreignPhotoIds } from "../photos/photo-store";
import { engineHoursAt, odometerAtMiles } from "../../shared/costs/fuel";
import { fuelVehicle, tripsAfter } from "../fuel/fuel-writes";
import type { VehicleRow } from "./readings";
import { readingOrNotFound } from "./service-writes";
import type { IssueRow } from "./issues";
import { restartWrites, schedulesByIds, type ScheduleRow } from "./schedules";
import { conflict, linesOf, workOrderIn, type LineRow, type PartRow, type WorkOrderRow } from "./work-order-rows";

/**
 * Completing a work order and reopening it (issue 55, DESIGN.md "Maintenance", docs/decisions/0087),
 * each ONE versioned write: completing resolves the order's open issues, restarts its schedules,
 * records one service entry whose cost is the order's total (labour, parts and tax, split on the
 * entry for the cost report) and takes its part lines' quantities from stock; what it did is kept on
 * the order (`completion`), and reopening undoes exactly that: the entry is deleted, each issue it
 * resolved goes back to the status it had (unless someone changed it since), each schedule back to
 * its former basis (unless something restarted it since), the stock comes back.
 */
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];
type CompleteInput = z.output<typeof completeWorkOrderBody>;

/** How far a completion's time may run ahead of the server's clock (a phone's clock). */
const FUTURE_SLACK_MS = 5 * 60_000;

/** The live issues the order names that a completion resolves (open or in progress), with their status now. */
async function issuesToResolve(db: Db, workspaceId: string, ids: string[]) {
  const rows: { id: string; status: IssueRow["status"] }[] = [];
  for (const part of inLists(ids))
    rows.push(
      ...(await db
        .select({ id: issues.id, status: issues.status })
        .from(issues)
        .where(and(eq(issues.workspaceId, workspaceId), eq(issues.deleted, false), inArray(issues.id, part)))
        .all()),
    );
  return rows.filter((r) => r.status === "open" || r.status === "in_progress");
}

async function livePartsByIds(db: Db, workspaceId: string, ids: string[]): Promise<PartRow[]> {
  const rows: PartRow[] = [];
  for (const part of inLists(ids))
    rows.push(
      ...(await db
        .select()
        .from(parts)
        .where(and(eq(parts.workspaceId, workspaceId), eq(parts.deleted, false), inArray(parts.id, part)))
        .all()),
    );
  return rows;
}

/** What the part lines take from stock; 409 naming the first part that would go below zero, unless allowed. */
async function stockTaken(db: Db, workspaceId: string, lines: LineRow[], allowNegative: boolean) {
  const wanted = partQuantities(lines);
  const inStock = await livePartsByIds(db, workspaceId, [...wanted.keys()]);
  for (const p of inStock) {
    const left = p.quantityOnHand - wanted.get(p.id)!;
    if (left < 0 && !allowNegative)
      throw conflict(
        `Not enough ${p.name} in stock: ${p.quantityOnHand} on hand, ${wanted.get(p.id)} needed (send allowNegativeStock to take it anyway)`,
      );
  }
  return inStock.map((p) => ({ partId: p.id, quantity: wanted.get(p.id)! }));
}

/** What a completion reads of its workspace: the zone its day is counted in, and whether it needs a line. */
async function completionSettings(db: Db, workspaceId: string) {
  const row = await db
    .select({ timeZone: workspaces.timeZone, linesRequired: workspaces.workOrderLinesRequired })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) throw notFound("No such workspace");
  return row;
}

/**
 * A workspace that requires lines (Preferences, docs/decisions/0092) refuses to complete an order
 * with none: its service entry would record no cost. 400 `lines_required`, the same words over sync.
 */
function refuseWithoutLines(order: WorkOrderRow, lines: LineRow[], linesRequired: boolean) {
  if (linesRequired && lines.length === 0)
    throw new ApiError(
      400,
      "lines_required",
      `Work order #${order.number} has no lines: this workspace requires at least one labour or part line before a work order is completed`,
    );
}

function refuseNotCompletable(order: WorkOrderRow) {
  if (order.status === "completed") throw conflict(`Work order #${order.number} is already completed`);
  if (order.status === "cancelled")
    throw conflict(`Work order #${order.number} is cancelled: set it open again before completing it`);
}

/** The time a completion is dated: given (not in the future), else now. */
function completionTime(given: string | null | undefined, now: number) {
  const at = given ? Date.parse(given) : now;
  if (at > now + FUTURE_SLACK_MS)
    throw badRequest("completedAt: not in the future", { completedAt: ["Not in the future"] });
  return at;
}

/**
 * The vehicle's odometer and engine hours at a completion dated in the past (`completedAt`: the
 * work was done yesterday, entered today), worked back from its readings now through its trips
 * since, as a past fill-up's odometer is (worker/fuel/fuel-writes.ts). A completion dated now
 * reads them as they are.
 */
async function readingsAtPast(db: Db, workspaceId: string, reading: VehicleRow, at: number) {
  const [vehicle, trips] = await Promise.all([
    fuelVehicle(db, workspaceId, reading.id),
    tripsAfter(db, workspaceId, reading.id, at),
  ]);
  const now = Date.now();
  return {
    odometerMiles: odometerAtMiles(vehicle.odometer, trips, at, now),
    engineHours: engineHoursAt(reading.engineHours, trips, at, now),
  };
}

interface CompletionPlan {
  order: WorkOrderRow;
  lines: LineRow[];
  at: number;
  day: string;
  odometerMiles: number | null;
  engineHours: number | null;
  schedules: ScheduleRow[];
  record: WorkOrderCompletion;
}

/** Everything a completion reads and checks, before any write. */
async function planCompletion(
  db: Db,
  workspaceId: string,
  id: string,
  input: CompleteInput,
  { serviceEntryId, now }: { serviceEntryId: string; now: number },
): Promise<CompletionPlan> {
  const order = await workOrderIn(db, workspaceId, id);
  refuseNotCompletable(order);
  const at = completionTime(input.completedAt, now);
  const photos = [...input.photoIds, ...(input.signaturePhotoId ? [input.signaturePhotoId] : [])];
  if ((await foreignPhotoIds(db, workspaceId, photos)).length) throw notFound("No such photo in this workspace");
  const [lines, reading, { timeZone, linesRequired }, resolving, schedules] = await Promise.all([
    linesOf(db, workspaceId, id),
    readingOrNotFound(db, workspaceId, order.vehicleId),
    completionSettings(db, workspaceId),
    issuesToResolve(db, workspaceId, order.issueIds),
    schedulesByIds(db, workspaceId, order.scheduleIds),
  ]);
  refuseWithoutLines(order, lines, linesRequired);
  const stock = await stockTaken(db, workspaceId, lines, input.allowNegativeStock);
  const day = dayOf(at, timeZone);
  // The figures at completion default to the vehicle's own: its beacon's odometer and the engine
  // hours the server keeps, at that moment for a completion dated in the past.
  const then = input.completedAt ? await readingsAtPast(db, workspaceId, reading, at) : reading;
  const odometerMiles = input.odometerMiles ?? then.odometerMiles;
  const engineHours = input.engineHours ?? then.engineHours;
  const done = { day, at, odometerMiles, engineHours };
  const restarted = schedules.filter((s) => restartedBasis(s, done, reading) !== null);
  const record: WorkOrderCompletion = {
    serviceEntryId,
    issues: resolving,
    schedules: restarted.map((s) => ({
      id: s.id,
      cycle: s.cycle,
      lastDoneAt: s.lastDoneAt,
      lastDoneOdometerMiles: s.lastDoneOdometerMiles,
      lastDoneEngineHours: s.lastDoneEngineHours,
      announced: s.announced,
    })),
    stock,
  };
  return { order, lines, at, day, odometerMiles, engineHours, schedules: restarted, record };
}

/** The vendor's name the service entry carries, when the work was sent out. */
async function vendorName(db: Db, order: WorkOrderRow) {
  if (!order.vendorId) return null;
  const row = await db.select({ name: vendors.name }).from(vendors).where(eq(vendors.id, order.vendorId)).get();
  return row?.name ?? null;
}

/** The one service entry a completion records: the order's total as its cost, split into labour and parts. */
async function serviceEntryOf(
  db: Db,
  plan: CompletionPlan,
  photoIds: string[],
  opts: { userId: string; serviceEntryId: string; now: number },
) {
  const { order, record } = plan;
  const totals = workOrderTotals(plan.lines, order.taxCents);
  return {
    id: opts.serviceEntryId,
    workspaceId: order.workspaceId,
    vehicleId: order.vehicleId,
    date: plan.day,
    odometerMiles: plan.odometerMiles,
    engineHours: plan.engineHours,
    description: `Work order #${order.number}${order.description ? `: ${order.description}` : ""}`,
    costCents: totals.totalCents,
    laborCents: totals.laborCents,
    partsCents: totals.partsCents,
    vendor: await vendorName(db, order),
    notes: order.tasks.length ? order.tasks.join("\n") : null,
    photoIds,
    scheduleIds: record.schedules.map((s) => s.id),
    resolvesIssueIds: record.issues.map((i) => i.id),
    createdByUserId: opts.userId,
    workOrderId: order.id,
    createdAt: opts.now,
  };
}

/**
 * Statements that fail (a copy of a row collides with its own keys: the push's and the route
 * plan's trick, a statement cannot raise) and so abort the completion's whole batch when,
 * since its reads, the order changed (completed by someone else, a line added, its tax edited) or
 * a part it takes is no longer in stock: the reads' checks, made again inside the transaction, so
 * two completions racing for the last brake pads cannot both take them.
 */
function completionGuards(db: Db, order: WorkOrderRow, stock: WorkOrderCompletion["stock"], allowNegative: boolean) {
  const orderChanged = db.insert(workOrders).select(
    db
      .select()
      .from(workOrders)
      .where(
        and(
          eq(workOrders.id, order.id),
          eq(workOrders.workspaceId, order.workspaceId),
          ne(workOrders.version, order.version),
        ),
      ),
  );
  // Each part two parameters (its id and quantity), and the workspace's: D1 binds 100 at most.
  const shortOfStock = allowNegative
    ? []
    : chunkRows(stock, 3).map((taken) =>
        db.insert(parts).select(
          db
            .select()
            .from(parts)
            .where(
              and(
                eq(parts.workspaceId, order.workspaceId),
                or(...taken.map((t) => and(eq(parts.id, t.partId), lt(parts.quantityOnHand, t.quantity)))),
              ),
            )
            .limit(1),
        ),
      );
  return [orderChanged, ...shortOfStock];
}

/**
 * Whether a completion's batch failed on one of its guards (the order or a part's stock changed under
 * it): a completion inserts into neither table otherwise. Only for a completion's batch: another
 * mutation's UNIQUE failure on these tables is a real key clash (worker/sync/push.ts `lostRace`).
 */
export const completionRaced = (error: unknown) =>
  /UNIQUE constraint failed: (work_orders|parts)\./.test(String(error));

/**
 * The writes of completing work order `id`; `serviceEntryId` is the entry it records (a new UUID
 * over REST, the browser's over sync). Refused: another workspace's order (404), one completed or
 * cancelled (409), stock that would go below zero without `allowNegativeStock` (409 naming the part).
 */
export async function completeWorkOrderWrites(
  db: Db,
  workspaceId: string,
  id: string,
  input: CompleteInput,
  opts: { userId: string; serviceEntryId: string; now: number },
): Promise<{ writes: Writes; serviceEntryId: string }> {
  const plan = await planCompletion(db, workspaceId, id, input, opts);
  const { order, record } = plan;
  const entry = await serviceEntryOf(db, plan, input.photoIds, opts);
  const done = { day: plan.day, at: plan.at, odometerMiles: plan.odometerMiles, engineHours: plan.engineHours };
  const reading = { odometerMiles: plan.odometerMiles, engineHours: plan.engineHours };
  const writes: Writes = (stamp) => [
    ...completionGuards(db, order, record.stock, input.allowNegativeStock),
    db.insert(serviceEntries).values({ ...entry, version: stamp }),
    ...restartWrites(db, workspaceId, plan.schedules, done, reading, stamp),
    ...inLists(record.issues.map((i) => i.id)).map((part) =>
      db
        .update(issues)
        .set({ status: "resolved", resolvedByServiceEntryId: entry.id, updatedAt: opts.now, version: stamp })
        .where(and(eq(issues.workspaceId, workspaceId), inArray(issues.id, part))),
    ),
    ...record.stock.map(({ partId, quantity }) =>
      db
        .update(parts)
        .set({ quantityOnHand: sql`${parts.quantityOnHand} - ${quantity}`, version: stamp })
        .where(and(eq(parts.id, partId), eq(parts.workspaceId, workspaceId))),
    ),
    db
      .update(workOrders)
      .set({
        status: "completed",
        completedAt: plan.at,
        completedByUserId: opts.userId,
        odometerMiles: plan.odometerMiles,
        engineHours: plan.engineHours,
        signedName: input.signedName || null,
        photoIds: input.photoIds,
        signaturePhotoId: input.signaturePhotoId ?? null,
        serviceEntryId: entry.id,
        completion: record,
        updatedAt: opts.now,
        version: stamp,
      })
      .where(and(eq(workOrders.id, order.id), eq(workOrders.workspaceId, workspaceId))),
  ];
  return { writes, serviceEntryId: entry.id };
}

/** The writes that put back what one completion did (`record`), each guarded so a later change is not overwritten. */
function undoWrites(db: Db, workspaceId: string, record: WorkOrderCompletion, stamp: SQL<number>, now: number) {
  const entryId = record.serviceEntryId;
  return [
    db
      .update(serviceEntries)
      .set({ deleted: true, version: stamp })
      .where(and(eq(serviceEntries.id, entryId), eq(serviceEntries.workspaceId, workspaceId))),
    // An issue someone closed or reopened since keeps what they did.
    ...record.issues.map((i) =>
      db
        .update(issues)
        .set({ status: i.status as IssueRow["status"], resolvedByServiceEntryId: null, updatedAt: now, version: stamp })
        .where(
          and(
            eq(issues.id, i.id),
            eq(issues.workspaceId, workspaceId),
            eq(issues.status, "resolved"),
            eq(issues.resolvedByServiceEntryId, entryId),
          ),
        ),
    ),
    // A schedule restarted again since (its cycle moved on) keeps that newer service.
    ...record.schedules.map((s) =>
      db
        .update(serviceSchedules)
        .set({
          cycle: s.cycle,
          lastDoneAt: s.lastDoneAt,
          lastDoneOdometerMiles: s.lastDoneOdometerMiles,
          lastDoneEngineHours: s.lastDoneEngineHours,
          announced: s.announced,
          version: stamp,
        })
        .where(
          and(
            eq(serviceSchedules.id, s.id),
            eq(serviceSchedules.workspaceId, workspaceId),
            eq(serviceSchedules.cycle, s.cycle + 1),
          ),
        ),
    ),
    ...record.stock.map(({ partId, quantity }) =>
      db
        .update(parts)
        .set({ quantityOnHand: sql`${parts.quantityOnHand} + ${quantity}`, version: stamp })
        .where(and(eq(parts.id, partId), eq(parts.workspaceId, workspaceId))),
    ),
  ];
}

/** Reopening a completed order: its completion undone, and the order in progress again. 409 when not completed. */
export async function reopenWorkOrderWrites(db: Db, workspaceId: string, id: string, now: number): Promise<Writes> {
  const order = await workOrderIn(db, workspaceId, id);
  if (order.status !== "completed") throw conflict(`Work order #${order.number} is not completed`);
  const record = order.completion;
  return (stamp) => [
    ...(record ? undoWrites(db, workspaceId, record, stamp, now) : []),
    db
      .update(workOrders)
      .set({
        status: "in_progress",
        completedAt: null,
        completedByUserId: null,
        signedName: null,
        signaturePhotoId: null,
        serviceEntryId: null,
        completion: null,
        updatedAt: now,
        version: stamp,
      })
      .where(and(eq(workOrders.id, order.id), eq(workOrders.workspaceId, workspaceId))),
  ];
}
