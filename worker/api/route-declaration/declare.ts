import type { Context, MiddlewareHandler } from "hono";
import { COMPOSED_HANDLER } from "hono/utils/constants";
import type { AnyZodObject, z, ZodTypeAny } from "zod";
import type { Action } from "../../../shared/account/roles";
import { zod } from "../../lib/validate";
import { audit, emailId, type AuditEvent, type AuditFields } from "../../lib/audit";
import { clientIp, refusal, reserve, type Limit } from "../../auth/rate-limit";
import type { AppEnv } from "../../types";

/**
 * What a route needs of its caller (docs/decisions/0018-role-model.md): `public` and `development`
 * no session (development routes have their own gate), `signed-in` a person's live session, an
 * Action a workspace role that `can` do it. A person is checked by their role, an API token by its
 * scope (shared/account/api-tokens.ts `scopeActions`) and its role, both against this one word.
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
  /** Refusals worth naming beyond the usual 4xx, by status. */
  errors?: Record<number, string>;
  /**
   * Budgets each call spends, in order, once its input is valid: past one the call is answered 429
   * with Retry-After and the handler does not run (worker/auth/rate-limit.ts). The document names
   * them. Failure budgets that a success gives back (sign-in, second factor) stay with their code.
   */
  limits?: readonly RouteLimit[];
}

/** One budget of a route: the limit, whose budget a call spends, and what a refusal is audited as. */
export interface RouteLimit {
  limit: Limit;
  /** Whose budget: e.g. "network" (`perNetwork`), "user" (`perUser`), or an e-mail from the body. */
  per: string;
  key: (c: Context<AppEnv>) => string | Promise<string>;
  /** Only calls this holds for spend it (an API token's own budget: people have none). */
  when?: (c: Context<AppEnv>) => boolean;
  refusedAudit?: { event: AuditEvent; fields: (c: Context<AppEnv>) => AuditFields | Promise<AuditFields> };
}

type RefusedAudit = RouteLimit["refusedAudit"];

/** A budget per caller's network (an IPv6 /64 or an IPv4 address). */
export const perNetwork = (limit: Limit, refusedAudit?: RefusedAudit): RouteLimit => ({
  limit,
  per: "network",
  key: (c) => `ip:${clientIp(c)}`,
  refusedAudit,
});

/** A budget per signed-in person, across their sessions and workspaces. */
export const perUser = (limit: Limit, refusedAudit?: RefusedAudit): RouteLimit => ({
  limit,
  per: "user",
  key: (c) => `user:${c.var.session.userId}`,
  refusedAudit,
});

/** A refusal audited with the body's e-mail (hashed, as every audit line has it) and the caller's network. */
export const refusedWithEmail = (event: AuditEvent, schema: z.ZodType<{ email: string }>): RefusedAudit => ({
  event,
  fields: async (c) => ({ email: await emailId(validBody(c, schema).email), ip: clientIp(c) }),
});

/** The validated JSON body inside a limit's key or audit (the declaration's validators ran first). */
export function validBody<S extends ZodTypeAny>(c: Context<AppEnv>, _schema: S): z.output<S> {
  return c.req.valid("json" as never) as z.output<S>;
}

/** Spends a call's budgets; throws the 429 of the first that is spent (after auditing it). */
async function spendLimits(c: Context<AppEnv>, limits: readonly RouteLimit[]): Promise<void> {
  for (const { limit, key, when, refusedAudit } of limits) {
    if ((when && !when(c)) || (await reserve(c, limit, await key(c)))) continue;
    if (refusedAudit) audit(refusedAudit.event, { ...(await refusedAudit.fields(c)), reason: "rate_limited" });
    throw refusal(c, limit);
  }
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
  const limits = declaration.limits ?? [];
  const middleware: MiddlewareHandler<AppEnv> = (c, next) => {
    const run = async (at: number): Promise<void> => {
      const validator = validators[at];
      if (!validator) {
        await spendLimits(c, limits);
        return next();
      }
      await validator(c, () => run(at + 1));
    };
    return run(0);
  };
  declarations.set(middleware, declaration);
  return middleware as MiddlewareHandler<AppEnv, string, { in: Parts<D, "in">; out: Parts<D, "out"> }>;
}
