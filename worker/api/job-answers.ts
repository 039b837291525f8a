import { z } from "zod";
import { JOB_STATUSES, type Job } from "../../shared/jobs/jobs";
import { jobTableAnswers } from "../../shared/jobs/job-fields";
import { jobMessageSchema } from "../../shared/jobs/customer-messages";

/** What the job and route routes answer, for their declarations (issue 43, DESIGN.md "Jobs and routes"). */
const nullableString = z.string().nullable();
const instant = z.string().nullable().describe("ISO 8601");

export const job: z.ZodType<Job> = z.object({
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
  ...jobTableAnswers,
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

/** `GET /api/jobs/{id}`: the job and its story (DESIGN.md "A job's story"). */
export const jobDetail = job.and(
  z.object({
    messages: z
      .array(jobMessageSchema)
      .describe("What the job's customer was sent, when, and what became of it (no address)"),
  }),
);

export const importResult = z.object({
  created: z.number().int(),
  errors: z.array(z.object({ line: z.number().int().describe("The header is line 1"), error: z.string() })),
});
