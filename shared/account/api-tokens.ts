import { z } from "zod";
import type { Action, Role } from "./roles";

/**
 * Integrators' API tokens (DESIGN.md "Sharing and integrations", docs/decisions/0029): a bearer
 * on /api/* limited to one workspace and a scope. Shared by the Worker's routes, the settings
 * page and the OpenAPI document.
 */
export const API_TOKEN_SCOPES = ["read", "write"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every API token starts so: the Worker tells it from a session token without a lookup, and secret scanners can find leaked ones. */
export const API_TOKEN_PREFIX = "fo_";

/**
 * What each scope lets a token do, by the action a route does (its declared permission, worker/api/route-declaration/), not by
 * the role of the person who made it (issue 39): a token never leaves, manages members, invites,
 * tokens or settings, nor acts for a person (`person.own`), whatever its creator may do. The
 * token's role is also capped by its scope (`scopeRole`) and by its creator's current role.
 */
export const scopeActions: Record<ApiTokenScope, readonly Action[]> = {
  read: ["workspace.view"],
  write: ["workspace.view", "fleet.edit"],
};
export const scopeRole: Record<ApiTokenScope, Role> = { read: "viewer", write: "member" };

export const createApiTokenSchema = z.object({
  name: z.string({ required_error: "Name the token" }).trim().min(1, "Name the token").max(80, "At most 80 characters"),
  scope: z.enum(API_TOKEN_SCOPES, { errorMap: () => ({ message: "Choose read or write" }) }),
});
export type CreateApiToken = z.infer<typeof createApiTokenSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  createdAt: z.number(),
  /** When it last authenticated a request (updated at most once a minute); null if never. */
  lastUsedAt: z.number().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to creating one: the only time the secret is shown. */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

/** Who made a token or a share link (issue 39): null once that account is gone (its credentials ended with it). */
export const creatorFields = {
  createdBy: z.string().nullable(),
  createdByEmail: z.string().nullable(),
};

/** A listed token names its creator; the answer to creating one does not need to. */
export const listedApiTokenSchema = apiTokenSchema.extend(creatorFields);
export type ListedApiToken = z.infer<typeof listedApiTokenSchema>;
export const apiTokenListSchema = z.object({ tokens: z.array(listedApiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** Tokens per workspace, revoked ones not counted. */
export const MAX_API_TOKENS = 50;
