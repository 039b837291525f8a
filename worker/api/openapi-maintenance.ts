import { z } from "zod";
import { replaceDeviceIdsBodySchema, replacedDeviceIdsSchema } from "../../shared/beacon-health";
import {
  inspectionFormBodySchema,
  inspectionFormPatchSchema,
  inspectionItemKinds,
  inspectionSubmissionSchema,
  type Inspection,
  type InspectionForm,
} from "../../shared/inspections";
import {
  createIssueBody,
  issueCommentBody,
  ISSUE_PRIORITIES,
  ISSUE_STATUSES,
  updateIssueBody,
  type IssueCommentJson,
  type IssueJson,
} from "../../shared/issues";
import { PHOTO_TYPES, type PhotoCreated, type PhotoUsage } from "../../shared/photos";
import {
  serviceEntryBodySchema,
  serviceScheduleBodySchema,
  serviceSchedulePatchSchema,
  serviceStatuses,
  type ServiceEntry,
  type ServiceSchedule,
} from "../../shared/service";
import type { MyActions } from "../maintenance/my-actions";
import { listQuery as inspectionListQuery } from "./inspections";
import { listQuery as issueListQuery } from "./issues";
import type { Operation } from "./openapi-operations";
import { renewal } from "./openapi-costs";
import { uploadQuery } from "./photos";
import { vehicleQuery } from "./service";

/**
 * The registry's entries for the maintenance routes (DESIGN.md "Maintenance": issues, photos,
 * service, inspections, my actions) and the owners' device-id replacement. Request schemas are the
 * routes' own; the answers are typed TypeScript interfaces there, so their schemas are written
 * here, each annotated with that interface: a field added to the answer and not here fails
 * typecheck instead of silently leaving the document behind.
 */
const ids = z.array(z.string());
const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

const issueJson: z.ZodType<IssueJson> = z.object({
  id: z.string(),
  number: z.number().int().describe("1, 2, … per workspace"),
  vehicleId: z.string(),
  title: z.string(),
  description: nullableString,
  priority: z.enum(ISSUE_PRIORITIES),
  status: z.enum(ISSUE_STATUSES),
  reportedByUserId: nullableString,
  assigneeUserId: nullableString,
  dueDate: nullableString.describe("YYYY-MM-DD"),
  photoIds: ids,
  sourceInspectionId: nullableString.describe("The inspection whose failed item opened it"),
  sourceAlertId: nullableString,
  resolvedByServiceEntryId: nullableString,
  createdAt: z.string().describe("ISO 8601"),
  updatedAt: z.string().describe("ISO 8601"),
});
const issueCommentJson: z.ZodType<IssueCommentJson> = z.object({
  id: z.string(),
  issueId: z.string(),
  authorUserId: nullableString,
  text: z.string(),
  photoIds: ids,
  createdAt: z.string().describe("ISO 8601"),
});

const serviceSchedule: z.ZodType<ServiceSchedule> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  name: z.string(),
  everyMiles: nullableNumber,
  everyEngineHours: nullableNumber,
  everyDays: nullableNumber,
  lastDoneAt: z.string().describe("ISO 8601"),
  lastDoneOdometerMiles: nullableNumber,
  lastDoneEngineHours: nullableNumber,
  status: z.enum(serviceStatuses).describe("due_soon: within 10 % of an interval"),
  nextDueMiles: nullableNumber,
  nextDueAt: nullableString.describe("ISO 8601"),
  nextDueEngineHours: nullableNumber,
});
const serviceEntry: z.ZodType<ServiceEntry> = z.object({
  id: z.string(),
  vehicleId: z.string(),
  date: z.string().describe("YYYY-MM-DD"),
  odometerMiles: nullableNumber,
  engineHours: nullableNumber,
  description: nullableString,
  costCents: nullableNumber,
  vendor: nullableString,
  notes: nullableString,
  photoIds: ids,
  scheduleIds: ids.describe("The schedules it restarted"),
  resolvesIssueIds: ids.describe("The issues it resolved"),
  createdAt: z.string().describe("ISO 8601"),
});

const inspectionForm: z.ZodType<InspectionForm> = z.object({
  id: z.string(),
  name: z.string(),
  items: z.array(z.object({ id: z.string(), label: z.string(), kind: z.enum(inspectionItemKinds) })),
  isDefault: z.boolean().describe("The workspace's built-in pre-trip inspection"),
});
const inspection: z.ZodType<Inspection> = z.object({
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

const myActions: z.ZodType<MyActions> = z.object({
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
});

const photoCreated: z.ZodType<PhotoCreated> = z.object({ id: z.string() });
const badImage = {
  409: "limit_reached: the workspace's photos would pass its quota (GET /api/photos/usage)",
  413: "The image is larger than 10 MB",
  415: "Not a JPEG, PNG or WebP image (the Content-Type and the bytes are both checked)",
  429: "More than 30 uploads a minute by this member in this workspace; Retry-After says when to try again",
};
const photoUsageSchema: z.ZodType<PhotoUsage> = z.object({
  usedBytes: z.number(),
  allowedBytes: z.number(),
  uploadsPerMinute: z.number(),
});

export const maintenanceOperations: Record<string, Operation> = {
  "POST /beacons/device-ids/replace": {
    summary: "Replace every beacon's device id at once (after a leak); answered once, not cached",
    tag: "Fleet",
    body: replaceDeviceIdsBodySchema,
    response: replacedDeviceIdsSchema,
  },
  "POST /photos": {
    summary:
      "Upload a photo (the body is the image). The server chooses its id from the uploader and `ref` (the device's own reference, for a retry): 200 when that was uploaded already",
    tag: "Maintenance",
    query: uploadQuery,
    binaryBody: PHOTO_TYPES,
    response: photoCreated,
    status: 201,
    errors: badImage,
  },
  "GET /photos/usage": {
    summary: "The workspace's photo storage: bytes used, its quota, and the uploads a member may make a minute",
    tag: "Maintenance",
    response: photoUsageSchema,
  },
  "GET /photos/:id": { summary: "A photo's bytes", tag: "Maintenance", binaryResponse: PHOTO_TYPES },
  "GET /issues": {
    summary: "The workspace's issues",
    tag: "Maintenance",
    query: issueListQuery,
    response: z.object({ issues: z.array(issueJson) }),
  },
  "GET /issues/:id": {
    summary: "An issue and its comments",
    tag: "Maintenance",
    response: z.intersection(issueJson, z.object({ comments: z.array(issueCommentJson) })),
  },
  "POST /issues": {
    summary: "Report an issue",
    tag: "Maintenance",
    body: createIssueBody,
    response: issueJson,
    status: 201,
  },
  "PATCH /issues/:id": {
    summary: "Change an issue (status, assignee, …); null clears a field",
    tag: "Maintenance",
    body: updateIssueBody,
    response: issueJson,
  },
  "POST /issues/:id/comments": {
    summary: "Comment on an issue",
    tag: "Maintenance",
    body: issueCommentBody,
    response: issueCommentJson,
    status: 201,
  },
  "GET /service-schedules": {
    summary: "Service schedules and when each is due",
    tag: "Maintenance",
    query: vehicleQuery,
    response: z.object({ schedules: z.array(serviceSchedule) }),
  },
  "POST /service-schedules": {
    summary: "Add a service schedule (at least one interval)",
    tag: "Maintenance",
    body: serviceScheduleBodySchema,
    response: serviceSchedule,
    status: 201,
  },
  "PATCH /service-schedules/:id": {
    summary:
      "Edit a service schedule (owners and admins): null removes an interval, at least one must remain; the last-done basis is kept unless given",
    tag: "Maintenance",
    body: serviceSchedulePatchSchema,
    response: serviceSchedule,
  },
  "DELETE /service-schedules/:id": {
    summary: "Delete a service schedule (owners and admins): it is no longer due anywhere",
    tag: "Maintenance",
    status: 204,
  },
  "GET /service-entries": {
    summary: "Service done (the latest 500)",
    tag: "Maintenance",
    query: vehicleQuery,
    response: z.object({ entries: z.array(serviceEntry) }),
  },
  "POST /service-entries": {
    summary: "Log service: restarts the schedules and resolves the issues it names",
    tag: "Maintenance",
    body: serviceEntryBodySchema,
    response: serviceEntry,
    status: 201,
  },
  "DELETE /service-entries/:id": {
    summary:
      "Delete a service entry logged by mistake (owners and admins); the schedules it restarted and the issues it resolved stay as they are",
    tag: "Maintenance",
    status: 204,
  },
  "GET /inspection-forms": {
    summary: "Inspection forms (the default pre-trip one included)",
    tag: "Maintenance",
    response: z.object({ forms: z.array(inspectionForm) }),
  },
  "POST /inspection-forms": {
    summary: "Add an inspection form",
    tag: "Maintenance",
    body: inspectionFormBodySchema,
    response: inspectionForm,
    status: 201,
  },
  "PATCH /inspection-forms/:id": {
    summary: "Edit a form: kept items send their id (it never changes), new ones none; past inspections are unchanged",
    tag: "Maintenance",
    body: inspectionFormPatchSchema,
    response: inspectionForm,
  },
  "GET /inspections": {
    summary: "Inspections submitted (the latest 500)",
    tag: "Maintenance",
    query: inspectionListQuery,
    response: z.object({ inspections: z.array(inspection) }),
  },
  "POST /inspections": {
    summary: "Submit an inspection: each failed item opens an issue; 200 when this id was submitted already",
    tag: "Maintenance",
    body: inspectionSubmissionSchema,
    response: inspection,
    status: 201,
  },
  "GET /my-actions": { summary: "What is the caller's to do", tag: "Maintenance", response: myActions },
};
