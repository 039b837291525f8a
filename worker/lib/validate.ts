import type { MiddlewareHandler } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import type { AppEnv } from "../types";
import { ApiError } from "./errors";

type Target = "json" | "query" | "form" | "param";

/**
 * Validates one part of the request with a zod schema: a bad or missing body is a 400 with the
 * failing fields, never a 500. Use as `app.post("/x", body(schema), (c) => c.req.valid("json"))`.
 */
export function zod<T extends Target, S extends z.ZodTypeAny>(target: T, schema: S) {
  return validator(target, (value) => parseInput(schema, value)) as MiddlewareHandler<
    AppEnv,
    string,
    { in: { [K in T]: z.input<S> }; out: { [K in T]: z.output<S> } }
  >;
}

export const body = <S extends z.ZodTypeAny>(schema: S) => zod("json", schema);

/** `value` parsed with `schema`, or the 400 ApiError (with the failing fields) every API answers bad input with. */
export async function parseInput<S extends z.ZodTypeAny>(schema: S, value: unknown): Promise<z.output<S>> {
  const result = await schema.safeParseAsync(value);
  if (!result.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join(".") || "_";
      (fields[key] ??= []).push(issue.message);
    }
    const first = result.error.issues[0];
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    throw new ApiError(400, "invalid_input", `${where}${first?.message ?? "Invalid input"}`, fields);
  }
  return result.data as z.output<S>;
}
