import { z } from "zod";
import { clockMinutes, clockSchema, jobDateSchema } from "./jobs";

/**
 * Planning a day over the API (issue 54, DESIGN.md "Jobs and routes", docs/decisions/0076):
 * `POST /api/routes/plan` proposes, `POST /api/routes/plan/apply` assigns and orders.
 */

/**
 * The most jobs one plan takes: the planner holds a travel matrix of places squared, and a Worker's
 * memory is 128 MB (1,000 jobs: about 25 MB). A bigger day is planned a part at a time (jobIds).
 */
export const MAX_PLAN_JOBS = 1_000;
/** The most vehicles one plan takes. */
export const MAX_PLAN_VEHICLES = 200;
/** The shift a vehicle works when the request names none. */
export const DEFAULT_SHIFT = { start: "08:00", end: "18:00" } as const;

const latitude = z.number().min(-90, "Between -90 and 90").max(90, "Between -90 and 90");
const longitude = z.number().min(-180, "Between -180 and 180").max(180, "Between -180 and 180");
/** Where routes start or end: a point, or one of the workspace's places (its centre). */
export const planPlaceSchema = z.union([
  z.object({ latitude, longitude }).strict(),
  z.object({ placeId: z.string().min(1) }).strict(),
]);
export type PlanPlace = z.infer<typeof planPlaceSchema>;

/**
 * What the planner reads of a vehicle (migrations/0039), set through `PATCH /api/vehicles/{id}`:
 * null clears one (then the plan request's, or the defaults, apply).
 */
export const vehiclePlanFieldsSchema = z
  .object({
    capacity: z.number().positive("More than 0").max(1_000_000, "At most 1,000,000").nullable(),
    shiftStart: clockSchema.nullable(),
    shiftEnd: clockSchema.nullable(),
    homePlaceId: z.string().min(1).max(100).nullable(),
  })
  .partial();
export type VehiclePlanFields = z.infer<typeof vehiclePlanFieldsSchema>;

/** A shift ends after it starts (checked on the vehicle's fields once a patch is merged). */
export const shiftInOrder = (start: string | null, end: string | null) =>
  !start || !end || clockMinutes(end) > clockMinutes(start);

export const routePlanBodySchema = z
  .object({
    date: jobDateSchema,
    vehicleIds: z.array(z.string().min(1)).min(1).max(MAX_PLAN_VEHICLES).optional(),
    jobIds: z
      .array(z.string().min(1))
      .min(1)
      .max(MAX_PLAN_JOBS, `At most ${MAX_PLAN_JOBS.toLocaleString("en-US")} jobs a plan`)
      .optional(),
    keepAssigned: z.boolean().default(true),
    start: planPlaceSchema.optional(),
    end: planPlaceSchema.optional(),
    shiftStart: clockSchema.optional(),
    shiftEnd: clockSchema.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (!shiftInOrder(b.shiftStart ?? null, b.shiftEnd ?? null))
      ctx.addIssue({ code: "custom", path: ["shiftEnd"], message: "Ends after the shift starts" });
  });
export type RoutePlanBody = z.infer<typeof routePlanBodySchema>;

export const plannedStopSchema = z.object({
  jobId: z.string(),
  arrival: z.string().describe("ISO 8601: when the vehicle gets there"),
  start: z.string().describe("ISO 8601: when the service starts (later when early)"),
  version: z.number().int().describe("The job's version the plan was made on: apply answers 409 if it changed"),
});
export const plannedRouteSchema = z.object({
  vehicleId: z.string(),
  stops: z.array(plannedStopSchema),
  distanceMeters: z.number(),
  durationSeconds: z.number(),
});
const totalsSchema = z.object({
  stops: z.number().describe("Stops the day visits (the plan's left-out jobs are not among them)"),
  distanceMeters: z.number(),
  durationSeconds: z.number(),
  lateStops: z.number(),
});
export const routePlanSchema = z.object({
  routes: z.array(plannedRouteSchema),
  unassigned: z.array(
    z.object({
      jobId: z.string(),
      reason: z.enum(["missing_skills", "too_large", "unreachable_in_window", "no_room_left"]),
    }),
  ),
  before: totalsSchema,
  after: totalsSchema,
});
export type RoutePlan = z.infer<typeof routePlanSchema>;

/** What apply reads of a plan: each route's vehicle and its stops in order (times are not needed). */
export const routePlanApplySchema = z
  .object({
    routes: z
      .array(
        z.object({
          vehicleId: z.string().min(1),
          stops: z
            .array(z.object({ jobId: z.string().min(1), version: z.number().int().optional() }).passthrough())
            .max(MAX_PLAN_JOBS),
        }),
      )
      .min(1)
      .max(MAX_PLAN_VEHICLES),
  })
  .superRefine((b, ctx) => {
    const ids = b.routes.flatMap((r) => r.stops.map((s) => s.jobId));
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: "custom", path: ["routes"], message: "Each job in one route, once" });
    if (ids.length > MAX_PLAN_JOBS)
      ctx.addIssue({ code: "custom", path: ["routes"], message: `At most ${MAX_PLAN_JOBS} jobs a plan` });
    const vehicles = b.routes.map((r) => r.vehicleId);
    if (new Set(vehicles).size !== vehicles.length)
      ctx.addIssue({ code: "custom", path: ["routes"], message: "Each vehicle once" });
  });
export type RoutePlanApply = z.infer<typeof routePlanApplySchema>;
