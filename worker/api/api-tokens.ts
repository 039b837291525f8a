import { and, desc, eq, isNull } from "drizzle-orm";
import { Hono } from "hono";
import {
  createApiTokenSchema,
  MAX_API_TOKENS,
  type ApiTokenList,
  type CreatedApiToken,
} from "../../shared/account/api-tokens";
import { insertApiTokenUnderCap } from "../../db/capped-insert";
import { apiTokens, users } from "../../db/schema";
import { newApiTokenSecret } from "../auth/api-tokens";
import { requireSession } from "../auth/session";
import { sha256Hex } from "../lib/crypto";
import { audit } from "../lib/audit";
import { ApiError, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { okAnswer } from "./route-declaration/answers";
import { apiTokenListSchema, createdApiTokenSchema } from "../../shared/account/api-tokens";
import { declared } from "./route-declaration/declare";

/**
 * Integrators' API tokens of a workspace (DESIGN.md "Sharing and integrations"): owners and admins
 * create (the secret is answered once; only its SHA-256 is kept), list them with who made each,
 * and revoke any of them. A token also ends with its creator's membership (worker/team/credentials.ts).
 * worker/api/route-rules.ts checks the role and sets `c.var.access` for the workspace of `:id`.
 */
export const apiTokenRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/:id/api-tokens",
    declared({
      permission: "workspace.configure",
      summary: "The workspace's API tokens",
      tag: "API tokens",
      response: apiTokenListSchema,
    }),
    async (c) => {
      const rows = await c.var.db
        .select({
          id: apiTokens.id,
          name: apiTokens.name,
          scope: apiTokens.scope,
          createdAt: apiTokens.createdAt,
          lastUsedAt: apiTokens.lastUsedAt,
          createdBy: apiTokens.createdBy,
          createdByEmail: users.email,
        })
        .from(apiTokens)
        .leftJoin(users, eq(users.id, apiTokens.createdBy))
        .where(and(eq(apiTokens.workspaceId, c.var.access.workspaceId), isNull(apiTokens.revokedAt)))
        .orderBy(desc(apiTokens.createdAt))
        .all();
      const answer: ApiTokenList = { tokens: rows };
      return c.json(answer);
    },
  )
  .post(
    "/:id/api-tokens",
    declared({
      permission: "workspace.configure",
      summary: "Create an API token (its secret is answered once)",
      tag: "API tokens",
      body: createApiTokenSchema,
      response: createdApiTokenSchema,
      status: 201,
    }),
    async (c) => {
      const { name, scope } = c.req.valid("json");
      const { workspaceId } = c.var.access;
      const db = c.var.db;
      const token = newApiTokenSecret();
      const row = {
        id: crypto.randomUUID(),
        workspaceId,
        name,
        scope,
        tokenHash: await sha256Hex(token),
        createdBy: c.var.session.userId,
        createdAt: Date.now(),
      };
      // The cap is in the INSERT itself (db/capped-insert.ts): parallel creations cannot pass it together.
      const inserted = await insertApiTokenUnderCap(db, row, MAX_API_TOKENS);
      if (inserted.length === 0)
        throw new ApiError(
          409,
          "too_many_tokens",
          `A workspace has at most ${MAX_API_TOKENS} API tokens: revoke one first`,
        );
      audit("api_token.created", { tokenId: row.id, workspaceId, scope, by: c.var.session.userId });
      const answer: CreatedApiToken = { id: row.id, name, scope, createdAt: row.createdAt, lastUsedAt: null, token };
      return c.json(answer, 201);
    },
  )
  .delete(
    "/:id/api-tokens/:tokenId",
    declared({
      permission: "workspace.configure",
      summary: "Revoke an API token",
      tag: "API tokens",
      response: okAnswer,
    }),
    async (c) => {
      const { workspaceId } = c.var.access;
      const tokenId = c.req.param("tokenId");
      const revoked = await c.var.db
        .update(apiTokens)
        .set({ revokedAt: Date.now() })
        .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.workspaceId, workspaceId), isNull(apiTokens.revokedAt)))
        .returning({ id: apiTokens.id });
      if (!revoked.length) throw notFound("No such API token in this workspace");
      audit("api_token.revoked", { tokenId, workspaceId, by: c.var.session.userId });
      return c.json({ ok: true });
    },
  );
