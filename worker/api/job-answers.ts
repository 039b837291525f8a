import { z } from "zod";
import { JOB_STATUSES, type Job, type JobStory } from "../../shared/jobs/jobs";
import { jobTable } from "../../shared/jobs/job-fields";
import { jobMessageSchema, type JobMessage } from "../../shared/jobs/customer-messages";

/** What the job and route routes answer, for their declarations (issue 43, DESIGN.md "Jobs and routes"). */
const nullableString = z.string().nullable();
const instant = z.string().nullable().describe("ISO 8601");

const jobShape = z.object({
  id: z.string(),
  number: z.number().int().describe("#1, #2, ... per workspace"),
  title: z.string(),
  date: z.string().describe("The workspace's local day, YYYY-MM-DD"),
  vehicleId: nullableString.describe("null: not assigned yet"),
  placeId: nullableString,
  location: z.object({ latitude: z.number(), longitude: z.number(), address: nullableString }),
  windowStart: nullableString.describe("HH:MM, local"),
  windowEnd: nullableString.describe("HH:MM, local"),
  sequence: z.number().int().describe("The order on its vehicle's day"),
  ...jobTable.answers,
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
export const job: z.ZodType<Job> = jobShape;

/** `GET /api/jobs/{id}`: the job with its story (DESIGN.md "A job's story"). */
export const jobStory: z.ZodType<JobStory & { messages: JobMessage[] }> = jobShape.extend({
  visits: z
    .array(z.object({ arrivedAt: z.string().describe("ISO 8601"), departedAt: z.string().optional() }))
    .describe("Every time the vehicle was at the stop, in order; departedAt left out while it is there"),
  lateMinutes: z
    .number()
    .int()
    .optional()
    .describe("When late: minutes after the window's end it was reached (or, before, is expected)"),
  messages: z
    .array(jobMessageSchema)
    .describe("What the job's customer was sent, when, and what became of it (no address)"),
});

export const importResult = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ line: z.number().int().describe("The header is line 1"), error: z.string() })),
});
