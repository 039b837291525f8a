import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody } from "../../shared/http/api";

/**
 * A failure the caller can act on. Thrown anywhere in a handler; `app.onError` turns it into
 * `{ error: { code, message, fields? } }` with its status. Anything else thrown is a bug: 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export function errorBody(err: ApiError): ApiErrorBody {
  const body: ApiErrorBody = { error: { code: err.code, message: err.message } };
  if (err.fields) body.error.fields = err.fields;
  return body;
}

export function errorResponse(c: Context, err: ApiError) {
  return c.json(errorBody(err), err.status);
}

/** The same body outside Hono (the realtime edge answers before any route): `no-store`, like every API answer. */
export function errorAnswer(err: ApiError): Response {
  return Response.json(errorBody(err), { status: err.status, headers: { "Cache-Control": "no-store" } });
}

export const badRequest = (message: string, fields?: Record<string, string[]>) =>
  new ApiError(400, "bad_request", message, fields);
export const unauthorized = (message = "Sign in to continue") => new ApiError(401, "unauthorized", message);
export const forbidden = (message = "Not allowed") => new ApiError(403, "forbidden", message);
export const notFound = (message = "Not found") => new ApiError(404, "not_found", message);
/** A per-workspace cap (issue 34: rules, places): 409, the message names the cap. */
export const limitReached = (message: string) => new ApiError(409, "limit_reached", message);
/** What a bug answers: never the error itself (its details stay in the log). */
export const internalError = () => new ApiError(500, "internal", "Something went wrong on our side");
