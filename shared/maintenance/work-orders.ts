import { z } from "zod";
import { cents, text } from "./field-schemas";
import { photoIdSchema, photoIdsSchema } from "./photos";
import { packId, setIfPresent, unpackId } from "../sync/wire";
import { lineCents, workOrderTotals, type WorkOrderTotals } from "../costs/work-order-costs";
import { type WorkOrderTableValues, type WorkOrderTableWire, workOrderTable } from "./work-order-fields";
import { type PartTableValues, type PartTableWire, partTable } from "./part-fields";
import { type VendorTableValues, type VendorTableWire, vendorTable } from "./vendor-fields";
import { placedAfter } from "../fields/field-table";

/**
 * Work orders, their lines, parts and vendors (issue 55, DESIGN.md "Maintenance",
 * docs/decisions/0087): one schema for the REST API, the sync mutators and the forms; the compact
 * synced values and their store keys, which the Work orders pages and My actions read. The plain
 * fields (the due date, the description, ...) are one table, shared/maintenance/work-order-fields.ts
 * (docs/decisions/0094), and so are a part's and a vendor's (part-fields.ts, vendor-fields.ts,
 * docs/decisions/0100); what is written out here carries a rule of its own.
 */

const id = z.string().min(1).max(100);

export const workOrderStatuses = ["open", "in_progress", "on_hold", "completed", "cancelled"] as const;
export type WorkOrderStatus = (typeof workOrderStatuses)[number];
export const workOrderStatusLabels: Record<WorkOrderStatus, string> = {
  open: "Open",
  in_progress: "In progress",
  on_hold: "On hold",
  completed: "Completed",
  cancelled: "Cancelled",
};
/** Statuses a PATCH may set: completing goes through `complete` (its effects), leaving it through `reopen`. */
export const settableStatuses = ["open", "in_progress", "on_hold", "cancelled"] as const;
/** Not completed and not cancelled: work still to do (My actions, the page's default filter). */
export const isActiveWorkOrder = (status: string) => status !== "completed" && status !== "cancelled";

export const lineKinds = ["labor", "part"] as const;
export type LineKind = (typeof lineKinds)[number];

const oneOfAssigneeOrVendor = {
  check: (b: { assigneeUserId?: string | null; vendorId?: string | null }) => !(b.assigneeUserId && b.vendorId),
  rule: { message: "Assign a member or send it to a vendor, not both", path: ["vendorId"] },
};

/** `POST /api/work-orders`. */
export const createWorkOrderBody = z
  .object({
    vehicleId: id,
    issueIds: z.array(id).max(50, "At most 50 issues").default([]),
    scheduleIds: z.array(id).max(50, "At most 50 schedules").default([]),
    tasks: z.array(text(500).min(1, "Required")).max(50, "At most 50 tasks").default([]),
    assigneeUserId: id.nullish(),
    vendorId: id.nullish(),
    ...workOrderTable.inputs,
  })
  .refine(oneOfAssigneeOrVendor.check, oneOfAssigneeOrVendor.rule);
export type CreateWorkOrderBody = z.input<typeof createWorkOrderBody>;

/** `PATCH /api/work-orders/{id}`: null clears a field; `taxCents` and `tasks` too (beyond DESIGN.md's list). */
export const workOrderPatchBody = z
  .object({
    status: z.enum(workOrderStatuses, {
      errorMap: () => ({ message: `One of ${workOrderStatuses.join(", ")}` }),
    }),
    assigneeUserId: id.nullable(),
    vendorId: id.nullable(),
    ...workOrderTable.inputs,
    tasks: z.array(text(500).min(1, "Required")).max(50, "At most 50 tasks"),
    taxCents: cents("tax"),
  })
  .partial()
  .refine(oneOfAssigneeOrVendor.check, oneOfAssigneeOrVendor.rule);
export type WorkOrderPatch = z.output<typeof workOrderPatchBody>;

const quantity = z
  .number({ required_error: "Required", invalid_type_error: "Enter a quantity" })
  .positive("More than 0")
  .max(100_000, "At most 100000");

/** `POST /api/work-orders/{id}/lines`: a part line may name a part of the inventory; a labour line who did it. */
export const workOrderLineBody = z
  .object({
    kind: z.enum(lineKinds, { errorMap: () => ({ message: "One of labor, part" }) }),
    description: text(500).nullish(),
    quantity,
    unitCostCents: cents("a unit cost"),
    partId: id.nullish(),
    userId: id.nullish(),
  })
  .refine((l) => l.kind === "part" || !l.partId, { message: "Only a part line names a part", path: ["partId"] });
export type WorkOrderLineBody = z.input<typeof workOrderLineBody>;

/** `PATCH /api/work-orders/{id}/lines/{lineId}`: the kind and the part stay. */
export const workOrderLinePatch = z
  .object({ description: text(500).nullable(), quantity, unitCostCents: cents("a unit cost"), userId: id.nullable() })
  .partial();
export type WorkOrderLinePatch = z.output<typeof workOrderLinePatch>;

/** `POST /api/work-orders/{id}/complete`: the figures default to the vehicle's (the beacon's), the time to now. */
export const completeWorkOrderBody = z.object({
  odometerMiles: z.number({ invalid_type_error: "Enter miles" }).min(0, "0 or more").max(10_000_000).nullish(),
  engineHours: z.number({ invalid_type_error: "Enter hours" }).min(0, "0 or more").max(1_000_000).nullish(),
  completedAt: z.string().datetime({ offset: true, message: "Use an ISO 8601 time" }).nullish(),
  photoIds: photoIdsSchema.default([]),
  signedName: text(200).nullish(),
  /** The signature drawn by whoever completes it, kept as a photo (as a job's proof keeps its signature). */
  signaturePhotoId: photoIdSchema.nullish(),
  /** Take part quantities from stock even below zero (otherwise 409 naming the part). */
  allowNegativeStock: z.boolean().default(false),
});
export type CompleteWorkOrderBody = z.input<typeof completeWorkOrderBody>;

/** A part's stock, a count (or a fraction: litres, metres); completing a work order takes from it. */
const quantityOnHand = z
  .number({ required_error: "Required", invalid_type_error: "Enter a quantity" })
  .min(0, "0 or more")
  .max(10_000_000, "At most 10000000");

/** `POST /api/parts`: the table's fields (shared/maintenance/part-fields.ts) and the stock, after the unit cost. */
export const partBody = z.object(placedAfter(partTable.inputs, "unitCostCents", { quantityOnHand }));
export type PartBody = z.input<typeof partBody>;
export const partPatchBody = partBody.partial();
export type PartPatch = z.output<typeof partPatchBody>;
export const partQuery = z.object({ belowReorder: z.enum(["true", "false"]).optional() });

/** `POST /api/vendors`: the table's fields (shared/maintenance/vendor-fields.ts). */
export const vendorBody = z.object(vendorTable.inputs);
export type VendorBody = z.input<typeof vendorBody>;
export const vendorPatchBody = vendorBody.partial();
export type VendorPatch = z.output<typeof vendorPatchBody>;

export const workOrderQuery = z.object({
  status: z.enum([...workOrderStatuses, "active", "all"]).optional(),
  vehicleId: id.optional(),
  assigneeUserId: id.optional(),
  vendorId: id.optional(),
});

/** At or below its reorder point (a part with none is never low). */
export const needsReorder = (p: { quantityOnHand: number; reorderPoint: number | null }) =>
  p.reorderPoint !== null && p.quantityOnHand <= p.reorderPoint;

// ------------------------------------------------------------------ what a completion did (its undo)

/**
 * Recorded on the order by its completion, so `reopen` undoes exactly that: the service entry it
 * recorded, the issues it resolved (with the status each had), the schedules it restarted (with
 * their former basis and cycle) and the stock it took.
 */
export interface WorkOrderCompletion {
  serviceEntryId: string;
  issues: { id: string; status: string }[];
  schedules: {
    id: string;
    cycle: number;
    lastDoneAt: number;
    lastDoneOdometerMiles: number | null;
    lastDoneEngineHours: number | null;
    announced: string | null;
  }[];
  stock: { partId: string; quantity: number }[];
}

/** Each inventory part's quantity over a work order's part lines (what completing takes from stock). */
export function partQuantities(lines: readonly { kind: string; partId: string | null; quantity: number }[]) {
  const taken = new Map<string, number>();
  for (const l of lines)
    if (l.kind === "part" && l.partId) taken.set(l.partId, (taken.get(l.partId) ?? 0) + l.quantity);
  return taken;
}

// ------------------------------------------------------------------ REST answers

export interface WorkOrderLineJson {
  id: string;
  workOrderId: string;
  kind: LineKind;
  description: string | null;
  quantity: number;
  unitCostCents: number;
  costCents: number;
  partId: string | null;
  userId: string | null;
  createdAt: string;
}

/** A work order's own fields, the same in the REST answer and in the synced value; the table's among them. */
interface WorkOrderFields extends WorkOrderTableValues {
  id: string;
  number: number;
  vehicleId: string;
  status: WorkOrderStatus;
  assigneeUserId: string | null;
  vendorId: string | null;
  issueIds: string[];
  scheduleIds: string[];
  tasks: string[];
  odometerMiles: number | null;
  engineHours: number | null;
  serviceEntryId: string | null;
  signedName: string | null;
  photoIds: string[];
  signaturePhotoId: string | null;
}

export interface WorkOrderJson extends WorkOrderTotals, WorkOrderFields {
  completedAt: string | null;
  completedByUserId: string | null;
  createdByUserId: string | null;
  createdAt: string;
  updatedAt: string;
  lines?: WorkOrderLineJson[];
}

export interface PartJson extends PartTableValues {
  id: string;
  quantityOnHand: number;
  belowReorder: boolean;
  createdAt: string;
}

export interface VendorJson extends VendorTableValues {
  id: string;
  createdAt: string;
}

export { lineCents, workOrderTotals };
export type { WorkOrderTotals };

// ------------------------------------------------------------------ the synced store (docs/decisions/0087)

/**
 * Keys hold ids packed (docs/decisions/0061), under short prefixes (a first sync carries every open
 * order); a line's key holds its order's id, so an order's lines are one scan.
 */
export const WORK_ORDER_PREFIX = "wo/";
export const WORK_ORDER_LINE_PREFIX = "wol/";
export const PART_PREFIX = "part/";
export const VENDOR_PREFIX = "vendor/";
export const workOrderKey = (id: string) => `${WORK_ORDER_PREFIX}${packId(id)}`;
export const workOrderLinesPrefix = (workOrderId: string) => `${WORK_ORDER_LINE_PREFIX}${packId(workOrderId)}/`;
export const workOrderLineKey = (workOrderId: string, lineId: string) =>
  `${workOrderLinesPrefix(workOrderId)}${packId(lineId)}`;
export const partKey = (id: string) => `${PART_PREFIX}${packId(id)}`;
export const vendorKey = (id: string) => `${VENDOR_PREFIX}${packId(id)}`;

/** A full sync carries every work order not closed, and the closed ones of the last this many days. */
export const SYNCED_CLOSED_WORK_ORDER_DAYS = 90;

export interface SyncedWorkOrder extends WorkOrderFields {
  taxCents: number;
  /** ms */
  completedAt: number | null;
  /** ms */
  createdAt: number;
}

/**
 * Compact (ADR 0013): ids packed, the status as its index (absent for open), times in seconds,
 * nulls and empty lists left out; the table's fields under their own keys (`dd`, `x`, ...). A new order with a vehicle, a number and an assignee is about
 * 150 bytes as a put (docs/decisions/0087 measures it).
 */
export type WorkOrderWire = WorkOrderTableWire & {
  v: string;
  n: number;
  c: number;
  s?: number;
  a?: string;
  vd?: string;
  i?: string[];
  sc?: string[];
  t?: string[];
  tx?: number;
  om?: number;
  oh?: number;
  at?: number;
  e?: string;
  sn?: string;
  ph?: string[];
  sg?: string;
};

const seconds = (ms: number) => Math.floor(ms / 1000);

export function encodeWorkOrder(o: Omit<SyncedWorkOrder, "id">): WorkOrderWire {
  const w: WorkOrderWire = { v: packId(o.vehicleId), n: o.number, c: seconds(o.createdAt) };
  const status = workOrderStatuses.indexOf(o.status);
  if (status > 0) w.s = status;
  if (o.assigneeUserId) w.a = packId(o.assigneeUserId);
  if (o.vendorId) w.vd = packId(o.vendorId);
  workOrderTable.encode(o, w);
  if (o.issueIds.length) w.i = o.issueIds.map(packId);
  if (o.scheduleIds.length) w.sc = o.scheduleIds.map(packId);
  if (o.tasks.length) w.t = o.tasks;
  if (o.taxCents) w.tx = o.taxCents;
  setIfPresent(w, "om", o.odometerMiles);
  setIfPresent(w, "oh", o.engineHours);
  if (o.completedAt !== null) w.at = seconds(o.completedAt);
  if (o.serviceEntryId) w.e = packId(o.serviceEntryId);
  setIfPresent(w, "sn", o.signedName);
  if (o.photoIds.length) w.ph = o.photoIds;
  setIfPresent(w, "sg", o.signaturePhotoId);
  return w;
}

export function decodeWorkOrder(keyPart: string, w: WorkOrderWire): SyncedWorkOrder {
  return {
    id: unpackId(keyPart),
    number: w.n,
    vehicleId: unpackId(w.v),
    status: workOrderStatuses[w.s ?? 0] ?? "open",
    assigneeUserId: w.a ? unpackId(w.a) : null,
    vendorId: w.vd ? unpackId(w.vd) : null,
    ...workOrderTable.decode(w),
    issueIds: (w.i ?? []).map(unpackId),
    scheduleIds: (w.sc ?? []).map(unpackId),
    tasks: w.t ?? [],
    taxCents: w.tx ?? 0,
    odometerMiles: w.om ?? null,
    engineHours: w.oh ?? null,
    completedAt: w.at === undefined ? null : w.at * 1000,
    serviceEntryId: w.e ? unpackId(w.e) : null,
    signedName: w.sn ?? null,
    photoIds: w.ph ?? [],
    signaturePhotoId: w.sg ?? null,
    createdAt: w.c * 1000,
  };
}

export interface SyncedWorkOrderLine {
  id: string;
  workOrderId: string;
  kind: LineKind;
  description: string | null;
  quantity: number;
  unitCostCents: number;
  partId: string | null;
  userId: string | null;
  /** When it was added (ms): with the id, the one order of an order's lines (`inAddedOrder`). */
  createdAt: number;
}
/** `k` is 1 for a part line (absent: labour); `c` when it was added, ms. */
export type WorkOrderLineWire = { q: number; u: number; c: number; k?: 1; x?: string; p?: string; by?: string };

/**
 * An order's lines in the order they were added, everywhere: the REST answer sorts the same way in
 * SQL (`created_at`, then `id`, byte order as here). The store's keys hold the line's packed id, so
 * a scan alone would order them at random, and differently on a fresh page and after a reload.
 */
export const inAddedOrder = <L extends { createdAt: number; id: string }>(lines: readonly L[]): L[] =>
  [...lines].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

export function encodeWorkOrderLine(l: Omit<SyncedWorkOrderLine, "id" | "workOrderId">): WorkOrderLineWire {
  const w: WorkOrderLineWire = { q: l.quantity, u: l.unitCostCents, c: l.createdAt };
  if (l.kind === "part") w.k = 1;
  setIfPresent(w, "x", l.description);
  if (l.partId) w.p = packId(l.partId);
  if (l.userId) w.by = packId(l.userId);
  return w;
}

/** `rest`: the key after the prefix, `{order}/{line}`. */
export function decodeWorkOrderLine(rest: string, w: WorkOrderLineWire): SyncedWorkOrderLine {
  const slash = rest.indexOf("/");
  return {
    id: unpackId(rest.slice(slash + 1)),
    workOrderId: unpackId(rest.slice(0, slash)),
    kind: w.k === 1 ? "part" : "labor",
    description: w.x ?? null,
    quantity: w.q,
    unitCostCents: w.u,
    partId: w.p ? unpackId(w.p) : null,
    userId: w.by ? unpackId(w.by) : null,
    createdAt: w.c ?? 0,
  };
}

/** A part in the store: the table's fields (shared/maintenance/part-fields.ts) and its stock. */
export interface SyncedPart extends PartTableValues {
  id: string;
  quantityOnHand: number;
}
/** The table's fields under their keys (`n`, `u`, `no`, `r`, `l`, ...), the stock as `q`. */
export type PartWire = PartTableWire & { q: number };

export function encodePart(p: Omit<SyncedPart, "id">): PartWire {
  const w = { q: p.quantityOnHand } as PartWire;
  partTable.encode(p, w);
  return w;
}

export const decodePart = (keyPart: string, w: PartWire): SyncedPart => ({
  id: unpackId(keyPart),
  ...partTable.decode(w),
  quantityOnHand: w.q,
});

/** A vendor in the store: the table's fields (shared/maintenance/vendor-fields.ts). */
export interface SyncedVendor extends VendorTableValues {
  id: string;
}
/** The table's fields under their keys (`n`, `e`, `p`, `a`, `x`, ...). */
export type VendorWire = VendorTableWire;

export function encodeVendor(v: Omit<SyncedVendor, "id">): VendorWire {
  const w = {} as VendorWire;
  vendorTable.encode(v, w);
  return w;
}

export const decodeVendor = (keyPart: string, w: VendorWire): SyncedVendor => ({
  id: unpackId(keyPart),
  ...vendorTable.decode(w),
});

/** A line's cost as the page shows it (the same rounding as the totals). */
export const syncedLineCents = (l: Pick<SyncedWorkOrderLine, "quantity" | "unitCostCents">) => lineCents(l);

// ------------------------------------------------------------------ sync mutations (shared/maintenance/work-order-mutators.ts)

/** The REST bodies with the ids the browser chose, so the order, line, part or vendor shows at once, offline too. */
export const createWorkOrderArgs = createWorkOrderBody
  .innerType()
  .extend({ id, createdAt: z.number().int().optional() })
  .refine(oneOfAssigneeOrVendor.check, oneOfAssigneeOrVendor.rule);
export type CreateWorkOrderArgs = z.input<typeof createWorkOrderArgs>;
export const updateWorkOrderArgs = workOrderPatchBody
  .innerType()
  .extend({ id })
  .refine(oneOfAssigneeOrVendor.check, oneOfAssigneeOrVendor.rule);
export type UpdateWorkOrderArgs = z.input<typeof updateWorkOrderArgs>;
/** `createdAt`: when the person added it (their device's clock, ms), which orders it among the order's lines. */
export const addWorkOrderLineArgs = workOrderLineBody
  .innerType()
  .extend({ id, workOrderId: id, createdAt: z.number().int().positive().optional() })
  .refine((l) => l.kind === "part" || !l.partId, { message: "Only a part line names a part", path: ["partId"] });
export type AddWorkOrderLineArgs = z.input<typeof addWorkOrderLineArgs>;
export const updateWorkOrderLineArgs = workOrderLinePatch.extend({ id, workOrderId: id });
export type UpdateWorkOrderLineArgs = z.input<typeof updateWorkOrderLineArgs>;
export const deleteWorkOrderLineArgs = z.object({ id, workOrderId: id });
export type DeleteWorkOrderLineArgs = z.input<typeof deleteWorkOrderLineArgs>;
/** `serviceEntryId`: the browser's id for the entry the completion records, so its optimistic copy is the server's. */
export const completeWorkOrderArgs = completeWorkOrderBody.extend({ id, serviceEntryId: id });
export type CompleteWorkOrderArgs = z.input<typeof completeWorkOrderArgs>;
export const workOrderIdArgs = z.object({ id });
export type WorkOrderIdArgs = z.input<typeof workOrderIdArgs>;
export const createPartArgs = partBody.extend({ id });
export type CreatePartArgs = z.input<typeof createPartArgs>;
export const updatePartArgs = partPatchBody.extend({ id });
export type UpdatePartArgs = z.input<typeof updatePartArgs>;
export const createVendorArgs = vendorBody.extend({ id });
export type CreateVendorArgs = z.input<typeof createVendorArgs>;
export const updateVendorArgs = vendorPatchBody.extend({ id });
export type UpdateVendorArgs = z.input<typeof updateVendorArgs>;
