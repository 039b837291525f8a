import type { MiddlewareHandler } from "hono";
import { COMPOSED_HANDLER } from "hono/utils/constants";
import type { AnyZodObject, z, ZodTypeAny } from "zod";
import type { Action } from "../../../shared/roles";
import { zod } from "../../lib/validate";
import type { AppEnv } from "../../types";

/**
 * What a route needs of its caller (docs/decisions/0018-role-model.md): `public` and `development`
 * no session (development routes have their own gate), `signed-in` a person's live session, an
 * Action a workspace role that `can` do it. A person is checked by their role, an API token by its
 * scope (shared/api-tokens.ts `scopeActions`) and its role, both against this one word.
 */
export type Permission = "public" | "development" | "signed-in" | Action;

/**
 * Everything about one API route but its method and path (those are its Hono registration, on the
 * same line): who may call it, the schemas it validates its input with, what it answers, and how
 * GET /api/openapi.json describes it. The role table and the document are read from these
 * (docs/decisions/0056-route-declarations.md).
 */
export interface RouteDeclaration {
  permission: Permission;
  summary: string;
  tag: string;
  /** Validated, in this order, before the handler runs (a 400 naming the field otherwise). */
  params?: AnyZodObject;
  query?: ZodTypeAny;
  body?: ZodTypeAny;
  /** Described in the document but read by the handler itself (device protocols, a report's format). */
  described?: { query?: ZodTypeAny; body?: ZodTypeAny; form?: boolean };
  response?: ZodTypeAny;
  status?: 200 | 201 | 204;
  /** The body is raw bytes of one of these media types (photos), not JSON. */
  binaryBody?: readonly string[];
  /** The answer is raw bytes of one of these media types. */
  binaryResponse?: readonly string[];
  /** Refusals worth naming beyond the usual 4xx, by status (a rate limit's 429 among them). */
  errors?: Record<number, string>;
}

const targets = { params: "param", query: "query", body: "json" } as const;
type Targets = typeof targets;
type SchemaAt<D, K extends keyof Targets> = D extends { [P in K]: infer S extends ZodTypeAny } ? S : never;
type Parts<D, Side extends "in" | "out"> = {
  [K in keyof Targets as [SchemaAt<D, K>] extends [never] ? never : Targets[K]]: Side extends "in"
    ? z.input<SchemaAt<D, K>>
    : z.output<SchemaAt<D, K>>;
};

const declarations = new WeakMap<object, RouteDeclaration>();

/**
 * The declaration a registered handler carries, if it is one made by `declared`. Mounting an app
 * that has its own error handler (the Worker mounts /api so) wraps each handler; Hono keeps the
 * original under COMPOSED_HANDLER.
 */
export function declarationOf(handler: unknown): RouteDeclaration | undefined {
  let current = handler;
  while (typeof current === "function") {
    const declaration = declarations.get(current);
    if (declaration) return declaration;
    current = (current as unknown as Record<string, unknown>)[COMPOSED_HANDLER];
  }
  return undefined;
}

/**
 * A route's declaration as the middleware that opens its handler chain:
 * `.post("/", declared({ permission: "fleet.edit", summary, tag, body: schema }), async (c) => …)`.
 * It validates params, query and body with the declared schemas (so `c.req.valid` is typed as
 * before) and is how the authorisation middleware and the document find the declaration.
 */
export function declared<const D extends RouteDeclaration>(declaration: D) {
  const validators = (Object.keys(targets) as (keyof Targets)[]).flatMap((part) => {
    const schema = declaration[part];
    return schema ? [zod(targets[part], schema)] : [];
  });
  const middleware: MiddlewareHandler<AppEnv> = (c, next) => {
    const run = async (at: number): Promise<void> => {
      const validator = validators[at];
      if (!validator) return next();
      await validator(c, () => run(at + 1));
    };
    return run(0);
  };
  declarations.set(middleware, declaration);
  return middleware as MiddlewareHandler<AppEnv, string, { in: Parts<D, "in">; out: Parts<D, "out"> }>;
}
