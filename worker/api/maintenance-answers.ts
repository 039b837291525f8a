import { z } from "zod";
import { inspectionItemKinds, type Inspection, type InspectionForm } from "../../shared/maintenance/inspections";
import { placedAfter } from "../../shared/fields/field-table";
import { issueTable } from "../../shared/maintenance/issue-fields";
import { ISSUE_STATUSES, type IssueCommentJson, type IssueJson } from "../../shared/maintenance/issues";
import { type PhotoCreated, type PhotoUsage } from "../../shared/maintenance/photos";
import { serviceStatuses, type ServiceEntry, type ServiceSchedule } from "../../shared/maintenance/service";
import { serviceEntryTable } from "../../shared/maintenance/service-entry-fields";
import { serviceScheduleTable } from "../../shared/maintenance/service-schedule-fields";
import type { MyActions } from "../maintenance/my-actions";
import { renewal } from "./cost-answers";
import { partJson, workOrderJson } from "./work-order-answers";

/**
 * What the maintenance routes answer (DESIGN.md "Maintenance": issues, photos, service,
 * inspections, my actions), for their declarations. The answers are typed TypeScript interfaces,
 * so each schema here is annotated with its interface: a field added to the answer and not here
 * fails typecheck instead of silently leaving GET /api/openapi.json behind.
 */
const ids = z.array(z.string());
const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

export const issueJson: z.ZodType<IssueJson> = z.object({
  id: z.string(),
  number: z.number().int().describe("1, 2, … per workspace"),
  vehicleId: z.string(),
  // the table's fields (title, priority, due date), the written-out ones where they always stood
  ...placedAfter(placedAfter(issueTable.answers, "title", { description: nullableString }), "priority", {
    status: z.enum(ISSUE_STATUSES),
    reportedByUserId: nullableString,
    assigneeUserId: nullableString,
  }),
  photoIds: ids,
  sourceInspectionId: nullableString.describe("The inspection whose failed item opened it"),
  sourceAlertId: nullableString,
  resolvedByServiceEntryId: nullableString,
  createdAt: z.string().describe("ISO 8601"),
  updatedAt: z.string().describe("ISO 8601"),
});
export const issueCommentJson: z.ZodType<IssueCommentJson> = z.object({
  id: z.string(),
  issueId: z.string(),
  authorUserId: nullableString,
  text: z.string(),
  photoIds: ids,
  createdAt: z.string().describe("ISO 8601"),
});

export const serviceSchedule: z.ZodType<ServiceSchedule> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  ...serviceScheduleTable.answers,
  lastDoneAt: z.string().describe("ISO 8601"),
  lastDoneOdometerMiles: nullableNumber,
  lastDoneEngineHours: nullableNumber,
  status: z.enum(serviceStatuses).describe("due_soon: within 10 % of an interval"),
  nextDueMiles: nullableNumber,
  nextDueAt: nullableString.describe("ISO 8601"),
  nextDueEngineHours: nullableNumber,
});
export const serviceEntry: z.ZodType<ServiceEntry> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  date: z.string().describe("YYYY-MM-DD"),
  ...serviceEntryTable.answers,
  photoIds: ids,
  scheduleIds: ids.describe("The schedules it restarted"),
  resolvesIssueIds: ids.describe("The issues it resolved"),
  createdAt: z.string().describe("ISO 8601"),
});

export const inspectionForm: z.ZodType<InspectionForm> = z.object({
  id: z.string(),
  name: z.string(),
  items: z.array(z.object({ id: z.string(), label: z.string(), kind: z.enum(inspectionItemKinds) })),
  isDefault: z.boolean().describe("The workspace's built-in pre-trip inspection"),
});
export const inspection: z.ZodType<Inspection> = z.object({
  id: z.string(),
  formId: z.string(),
  vehicleId: z.string(),
  odometerMiles: nullableNumber,
  results: z.array(
    z.object({
      itemId: z.string(),
      pass: z.boolean().nullable().optional(),
      value: z.union([z.string(), z.number()]).nullable().optional(),
      note: nullableString.optional(),
      photoIds: ids.optional(),
    }),
  ),
  signedName: z.string(),
  failedItems: z.number().int(),
  issueIds: ids.describe("One issue opened per failed pass/fail item"),
  submittedByUserId: nullableString,
  submittedAt: z.string().describe("ISO 8601"),
});

export const myActionsSchema: z.ZodType<MyActions> = z.object({
  issues: z.array(issueJson).describe("Assigned to the caller, not closed"),
  service: z.array(serviceSchedule).describe("Due soon or overdue"),
  inspections: z
    .array(z.object({ vehicleId: z.string(), vehicleName: z.string(), day: z.string() }))
    .describe(
      "Vehicles driven today without today's inspection: a trip under way at some moment of the workspace's day " +
        "(its time zone, midnight to midnight; `day` is that date) and no inspection submitted that day, by name",
    ),
  unreadAlerts: z.number().int(),
  renewals: z.array(renewal).describe("Due soon or overdue today (the workspace's day), overdue first"),
  workOrders: z.array(workOrderJson).describe("Assigned to the caller, neither completed nor cancelled"),
  parts: z.array(partJson).describe("At or below their reorder point (owners and admins; empty for others)"),
});

export const photoCreated: z.ZodType<PhotoCreated> = z.object({ id: z.string() });
export const badImage = {
  409: "limit_reached: the workspace's photos would pass its quota (GET /api/photos/usage)",
  413: "The image is larger than 10 MB",
  415: "Not a JPEG, PNG or WebP image (the Content-Type and the bytes are both checked)",
};
export const photoUsageSchema: z.ZodType<PhotoUsage> = z.object({
  usedBytes: z.number(),
  allowedBytes: z.number(),
  uploadsPerMinute: z.number(),
});
