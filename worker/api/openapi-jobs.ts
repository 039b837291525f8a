import { z } from "zod";
import {
  JOB_CSV_HEADER,
  JOB_STATUSES,
  jobBodySchema,
  jobCompleteBodySchema,
  jobPatchSchema,
  jobQuerySchema,
  routesQuerySchema,
  type Job,
} from "../../shared/jobs";
import type { Operation } from "./openapi-operations";

/** Jobs and routes in GET /api/openapi.json (issue 43, DESIGN.md "Jobs and routes"). */
const nullableString = z.string().nullable();
const instant = z.string().nullable().describe("ISO 8601");

const job: z.ZodType<Job> = z.object({
  id: z.string(),
  number: z.number().int().describe("#1, #2, ... per workspace"),
  title: z.string(),
  date: z.string().describe("The workspace's local day, YYYY-MM-DD"),
  vehicleId: nullableString.describe("null: not assigned yet"),
  placeId: nullableString,
  location: z.object({ latitude: z.number(), longitude: z.number(), address: nullableString }),
  radiusMeters: z.number(),
  windowStart: nullableString.describe("HH:MM, local"),
  windowEnd: nullableString.describe("HH:MM, local"),
  durationMinutes: z.number().int(),
  sequence: z.number().int().describe("The order on its vehicle's day"),
  notes: nullableString,
  customerName: nullableString,
  customerEmail: nullableString,
  status: z.enum(JOB_STATUSES),
  enRouteAt: instant,
  arrivedAt: instant,
  departedAt: instant,
  completedAt: instant,
  eta: instant.describe("While not arrived: when the vehicle is expected"),
  late: z.boolean(),
  proof: z
    .object({
      photoIds: z.array(z.string()),
      signaturePhotoId: nullableString,
      recipientName: nullableString,
      note: nullableString,
      completedByUserId: nullableString,
    })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const importResult = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ line: z.number().int().describe("The header is line 1"), error: z.string() })),
});

export const jobOperations: Record<string, Operation> = {
  "GET /jobs": {
    summary: "Jobs by date, vehicle (`none`: unassigned) and status, each day in its order",
    tag: "Jobs",
    query: jobQuerySchema,
    response: z.object({ jobs: z.array(job) }),
  },
  "POST /jobs": {
    summary: "Plan a job at a place or a location (an address alone where a geocoder is configured)",
    tag: "Jobs",
    body: jobBodySchema,
    response: job,
    status: 201,
  },
  "POST /jobs/import": {
    summary: `Import jobs from CSV with the header \`${JOB_CSV_HEADER}\`: all or nothing, errors by line`,
    tag: "Jobs",
    binaryBody: ["text/csv"],
    response: importResult,
    status: 201,
    errors: { 400: "Lines with errors (`errors`, the header being line 1); nothing was imported" },
  },
  "PATCH /jobs/:id": {
    summary: "Change a job; null clears the vehicle, window or texts; status by the transition rule",
    tag: "Jobs",
    body: jobPatchSchema,
    response: job,
  },
  "DELETE /jobs/:id": { summary: "Delete a job", tag: "Jobs", status: 204 },
  "POST /jobs/:id/complete": {
    summary: "Mark a job done, with proof (photos, a signature photo, the recipient's name, a note)",
    tag: "Jobs",
    body: jobCompleteBodySchema,
    response: job,
  },
  "GET /routes": {
    summary: "A day's routes: each vehicle's jobs in order, and the unassigned jobs",
    tag: "Jobs",
    query: routesQuerySchema,
    response: z.object({
      routes: z.array(z.object({ vehicleId: z.string(), jobs: z.array(job) })),
      unassigned: z.array(job),
    }),
  },
};
