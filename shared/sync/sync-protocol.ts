import { z } from "zod";

/**
 * Replicache's push/pull wire format (protocol version 1), validated on both ends. docs/product.md
 * section 5 fixes the pull response's shape: an error object, or lastMutationID changes, a patch
 * list and an optional cookie; patch ops put/update/del/clear; any other op is an
 * "unknown patch op"; a cookie is null, a string, a number or an object with a string or number
 * `order`, otherwise "Invalid cookie".
 */
export const PROTOCOL_VERSION = 1;
/**
 * Bumped whenever the shape of synced values changes; older clients' pulls are told to reload
 * (VersionNotSupported). Replicache starts a new, empty client group for a new schema version, so
 * values stored in an older shape are never read by newer code. "2": the compact values of
 * docs/decisions/0013. "3": service schedules, inspection forms, recent service entries and
 * inspections are synced (docs/decisions/0033); issues are keyed and linked by packed ids, without
 * what the list does not show (docs/decisions/0034). A new client group pulls them from scratch.
 * "4": fill-ups keyed by packed ids and sent as positional arrays, jobs' shorter key and whole-number
 * coordinates (docs/decisions/0061).
 */
export const SCHEMA_VERSION = "4";

const jsonValue: z.ZodType<unknown> = z.unknown();

export const cookieSchema = z.union(
  [z.null(), z.string(), z.number(), z.object({ order: z.union([z.string(), z.number()]) }).passthrough()],
  { errorMap: () => ({ message: "Invalid cookie" }) },
);
export type Cookie = z.infer<typeof cookieSchema>;

export const patchOperationSchema = z.discriminatedUnion(
  "op",
  [
    z.object({ op: z.literal("put"), key: z.string(), value: jsonValue }),
    z.object({
      op: z.literal("update"),
      key: z.string(),
      merge: z.record(jsonValue).optional(),
      constrain: z.array(z.string()).optional(),
    }),
    z.object({ op: z.literal("del"), key: z.string() }),
    z.object({ op: z.literal("clear") }),
  ],
  {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union_discriminator" ? { message: "unknown patch op" } : { message: ctx.defaultError },
  },
);
export type PatchOperation = z.infer<typeof patchOperationSchema>;

export const pullErrorSchema = z.union([
  z.object({ error: z.literal("ClientStateNotFound") }),
  z.object({ error: z.literal("VersionNotSupported"), versionType: z.enum(["pull", "push", "schema"]).optional() }),
]);

export const pullOkSchema = z.object({
  cookie: cookieSchema.optional(),
  lastMutationIDChanges: z.record(z.string(), z.number()),
  patch: z.array(patchOperationSchema),
});

export const pullResponseSchema = z.union([pullErrorSchema, pullOkSchema]);
export type PullResponse = z.infer<typeof pullResponseSchema>;

export const pullRequestSchema = z.object({
  pullVersion: z.number(),
  clientGroupID: z.string().min(1).max(100),
  cookie: cookieSchema,
  profileID: z.string().max(100),
  schemaVersion: z.string().max(100),
});

export const mutationSchema = z.object({
  clientID: z.string().min(1).max(100),
  id: z.number().int().positive(),
  name: z.string().max(100),
  args: jsonValue,
  timestamp: z.number(),
});
export type Mutation = z.infer<typeof mutationSchema>;

export const pushRequestSchema = z.object({
  pushVersion: z.number(),
  clientGroupID: z.string().min(1).max(100),
  // No maximum: Replicache sends every pending mutation; the Worker applies a prefix per request.
  mutations: z.array(mutationSchema),
  profileID: z.string().max(100),
  schemaVersion: z.string().max(100),
});

/**
 * A pull's answer as the HTTP status and JSON body, whichever transport carries it (POST
 * /api/sync/pull or the room's socket): the Worker produces it, the browser reads it.
 */
export interface PullAnswer {
  status: number;
  body: unknown;
}
