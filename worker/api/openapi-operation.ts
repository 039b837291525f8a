import type { AnyZodObject, ZodTypeAny } from "zod";

/**
 * One route's entry in GET /api/openapi.json (worker/api/openapi-operations.ts holds them all):
 * its own file so the per-feature operation lists can name it without importing the registry that
 * imports them (no import circle, issue 40).
 */
export interface Operation {
  summary: string;
  tag: string;
  body?: ZodTypeAny;
  query?: AnyZodObject;
  params?: AnyZodObject;
  response?: ZodTypeAny;
  status?: 200 | 201 | 204;
  /** Also accepted as a form body (the OsmAnd protocol). */
  form?: boolean;
  /** The body is raw bytes of one of these media types (photos), not JSON. */
  binaryBody?: readonly string[];
  /** The answer is raw bytes of one of these media types. */
  binaryResponse?: readonly string[];
  /** Refusals worth naming beyond the usual 4xx, by status. */
  errors?: Record<number, string>;
}
