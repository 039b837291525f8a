import { Hono } from "hono";
import { acceptInviteSchema, type AcceptInviteResponse } from "../../shared/account/roles";
import { createSession, signInOf } from "../auth/session";
import { endSession } from "../auth/end-sessions";
import { acceptInvite, previewInvite } from "../team/invites";
import type { AppEnv } from "../types";
import { tokenAnswer } from "./route-declaration/answers";
import { declared } from "./route-declaration/declare";

/**
 * The invite link's two calls: a preview for the /invite/{token} page (public: the token is the
 * secret, and it only tells the invited address and workspace name), and accepting it. Accepting
 * switches the session to the workspace joined, as `POST /api/workspaces/session` does.
 */
export const inviteRoutes = new Hono<AppEnv>()
  .get(
    "/:token",
    declared({ permission: "public", summary: "What an invite link invites to", tag: "Members" }),
    async (c) => c.json(await previewInvite(c.var.db, c.req.param("token").slice(0, 200))),
  )
  .post(
    "/accept",
    declared({
      permission: "signed-in",
      summary: "Accept an invite",
      tag: "Members",
      body: acceptInviteSchema,
      response: tokenAnswer,
    }),
    async (c) => {
      const { db, session } = c.var;
      const joined = await acceptInvite(c, c.req.valid("json").token);
      const token = await createSession(db, session.userId, joined.workspaceId, await signInOf(db, session.tokenHash));
      await endSession(c, session.tokenHash, "workspace_switch");
      const answer: AcceptInviteResponse = { ...joined, token };
      return c.json(answer);
    },
  );
