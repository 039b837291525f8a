import { Hono } from "hono";
import type { RealtimeTicketResponse } from "../../shared/sync/room-protocol";
import { requireSession, workspaceSession } from "../auth/session";
import { issueTicket } from "../room-entry";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/**
 * POST /api/realtime/ticket: a single-use ticket, valid one minute, that opens this session's
 * workspace room. The browser asks for one before each (re)connection, so the long-lived bearer
 * token never appears in a websocket URL (docs/decisions/0010).
 */
export const realtimeTicketRoutes = new Hono<AppEnv>().post(
  "/ticket",
  declared({
    permission: "signed-in",
    summary: "A single-use ticket for the workspace's realtime socket",
    tag: "Sync",
  }),
  requireSession,
  async (c) => {
    const session = workspaceSession(c.var.session);
    const answer: RealtimeTicketResponse = {
      ...(await issueTicket(c.var.db, session.tokenHash)),
      workspaceId: session.workspaceId,
    };
    return c.json(answer);
  },
);
