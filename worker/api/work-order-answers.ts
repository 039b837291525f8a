import { z } from "zod";
import {
  lineKinds,
  workOrderStatuses,
  type PartJson,
  type VendorJson,
  type WorkOrderJson,
  type WorkOrderLineJson,
} from "../../shared/maintenance/work-orders";
import { workOrderTable } from "../../shared/maintenance/work-order-fields";
import { partTable } from "../../shared/maintenance/part-fields";
import { vendorTable } from "../../shared/maintenance/vendor-fields";
import { placedAfter } from "../../shared/fields/field-table";

/**
 * What the work order, part and vendor routes answer (DESIGN.md "Maintenance"), for their
 * declarations; each schema is annotated with its interface, so a field added to an answer and not
 * here fails typecheck.
 */
const ids = z.array(z.string());
const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

export const workOrderLineJson: z.ZodType<WorkOrderLineJson> = z.object({
  id: z.string(),
  workOrderId: z.string(),
  kind: z.enum(lineKinds),
  description: nullableString,
  quantity: z.number().describe("Hours for labour, units for a part"),
  unitCostCents: z.number().int(),
  costCents: z.number().int().describe("quantity × unitCostCents, to whole cents"),
  partId: nullableString,
  userId: nullableString.describe("Who did the labour"),
  createdAt: z.string(),
});

export const workOrderJson: z.ZodType<WorkOrderJson> = z.object({
  id: z.string(),
  number: z.number().int().describe("1, 2, … per workspace"),
  vehicleId: z.string(),
  status: z.enum(workOrderStatuses),
  assigneeUserId: nullableString,
  vendorId: nullableString,
  ...workOrderTable.answers,
  issueIds: ids,
  scheduleIds: ids,
  tasks: z.array(z.string()),
  laborCents: z.number().int(),
  partsCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int().describe("laborCents + partsCents + taxCents"),
  odometerMiles: nullableNumber,
  engineHours: nullableNumber,
  completedAt: nullableString,
  completedByUserId: nullableString,
  signedName: nullableString,
  photoIds: ids,
  signaturePhotoId: nullableString,
  serviceEntryId: nullableString.describe("The service entry its completion recorded"),
  createdByUserId: nullableString,
  createdAt: z.string(),
  updatedAt: z.string(),
  lines: z.array(workOrderLineJson).optional(),
});

/** A part: the table's fields (shared/maintenance/part-fields.ts), its stock after the unit cost. */
export const partJson: z.ZodType<PartJson> = z.object({
  id: z.string(),
  ...placedAfter(partTable.answers, "unitCostCents", { quantityOnHand: z.number() }),
  belowReorder: z.boolean().describe("At or below its reorder point"),
  createdAt: z.string(),
});

/** A vendor: the table's fields (shared/maintenance/vendor-fields.ts). */
export const vendorJson: z.ZodType<VendorJson> = z.object({
  id: z.string(),
  ...vendorTable.answers,
  createdAt: z.string(),
});
