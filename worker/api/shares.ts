import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  createShareSchema,
  type CreatedShare,
  type ShareList,
  type SharedVehicle,
  type WorkspaceShareList,
} from "../../shared/fleet/shares";
import { users, vehicles, vehicleShares } from "../../db/schema";
import { requireSession, workspaceSession } from "../auth/session";
import { randomToken, sha256Hex } from "../lib/crypto";
import { audit } from "../lib/audit";
import { linkOpenings } from "../lib/link-openings";
import { ApiError, notFound } from "../lib/errors";
import { announceWrites, shareView } from "../workspace-object";
import { liveCustomerLinks } from "../jobs/job-shares";
import type { AppEnv } from "../types";
import { okAnswer } from "./route-declaration/answers";
import {
  createdShareSchema,
  sharedVehicleSchema,
  shareListSchema,
  workspaceShareListSchema,
} from "../../shared/fleet/shares";
import { declared } from "./route-declaration/declare";

/**
 * Live-share links (DESIGN.md "Sharing and integrations", docs/decisions/0029). Members create
 * and end them for a vehicle of their workspace (viewers see them); the token is answered once in
 * the URL and kept as its SHA-256. The public read answers only the vehicle's name and latest
 * position, until the link expires or is ended (410: ending tells the object that answers the
 * link's pages, so it is immediate; docs/decisions/0035).
 */
export const vehicleShareRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/:vehicleId/shares",
    declared({
      permission: "fleet.edit",
      summary: "Make a live-share link of a vehicle",
      tag: "Sharing",
      body: createShareSchema,
      response: createdShareSchema,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const vehicleId = await vehicleOf(c, workspaceId);
      const token = randomToken(32);
      const now = Date.now();
      const row = {
        id: crypto.randomUUID(),
        workspaceId,
        vehicleId,
        tokenHash: await sha256Hex(token),
        createdBy: c.var.session.userId,
        createdAt: now,
        expiresAt: now + c.req.valid("json").expiresInMinutes * 60_000,
      };
      await c.var.db.insert(vehicleShares).values(row);
      audit("share.created", {
        shareId: row.id,
        workspaceId,
        vehicleId,
        expiresAt: row.expiresAt,
        by: c.var.session.userId,
      });
      const answer: CreatedShare = {
        id: row.id,
        url: new URL(`/share/${token}`, c.var.config.APP_URL).href,
        expiresAt: row.expiresAt,
      };
      return c.json(answer, 201);
    },
  )
  .get(
    "/:vehicleId/shares",
    declared({
      permission: "workspace.view",
      summary: "A vehicle's open share links",
      tag: "Sharing",
      response: shareListSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const vehicleId = await vehicleOf(c, workspaceId);
      const shares = await c.var.db
        .select(shareColumns)
        .from(vehicleShares)
        .leftJoin(users, eq(users.id, vehicleShares.createdBy))
        .where(and(liveShareOf(workspaceId), eq(vehicleShares.vehicleId, vehicleId)))
        .orderBy(desc(vehicleShares.createdAt))
        .all();
      const answer: ShareList = { shares };
      return c.json(answer);
    },
  );

const shareColumns = {
  id: vehicleShares.id,
  createdAt: vehicleShares.createdAt,
  expiresAt: vehicleShares.expiresAt,
  createdBy: vehicleShares.createdBy,
  createdByEmail: users.email,
};

/** Links of the workspace still answering: neither ended nor expired. */
const liveShareOf = (workspaceId: string) =>
  and(
    eq(vehicleShares.workspaceId, workspaceId),
    isNull(vehicleShares.endedAt),
    gt(vehicleShares.expiresAt, Date.now()),
  );

/**
 * Every live link of the workspace of `:id`, with its vehicle and who made it (issue 39): owners
 * and admins see them in one place and end any with `DELETE /api/shares/{id}`.
 */
export const workspaceShareRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/:id/shares",
  declared({
    permission: "workspace.configure",
    summary: "Every live share link and customer link of the workspace, with who made it",
    tag: "Sharing",
    response: workspaceShareListSchema,
  }),
  async (c) => {
    const shares = await c.var.db
      .select({ ...shareColumns, vehicleId: vehicleShares.vehicleId, vehicleName: vehicles.name })
      .from(vehicleShares)
      .innerJoin(vehicles, eq(vehicles.id, vehicleShares.vehicleId))
      .leftJoin(users, eq(users.id, vehicleShares.createdBy))
      .where(liveShareOf(c.var.access.workspaceId))
      .orderBy(desc(vehicleShares.createdAt))
      .all();
    const customerLinks = await liveCustomerLinks(c.var.db, c.var.access.workspaceId);
    const answer: WorkspaceShareList = { shares, customerLinks };
    return c.json(answer);
  },
);

export const shareRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .delete(
    "/:id",
    declared({ permission: "fleet.edit", summary: "End a share link at once", tag: "Sharing", response: okAnswer }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const id = c.req.param("id");
      const ended = await c.var.db
        .update(vehicleShares)
        .set({ endedAt: Date.now() })
        .where(and(eq(vehicleShares.id, id), eq(vehicleShares.workspaceId, workspaceId), isNull(vehicleShares.endedAt)))
        .returning({ id: vehicleShares.id, tokenHash: vehicleShares.tokenHash });
      if (!ended.length) throw notFound("No such share link in this workspace");
      audit("share.ended", { shareId: id, workspaceId, by: c.var.session.userId });
      // The object answering the link's open pages forgets it: their next poll reads D1 and says "ended".
      // Should that call fail, the object re-reads the link within a minute anyway.
      const endedTokenHashes = [ended[0]!.tokenHash];
      await announceWrites({ env: c.env }, [workspaceId], { change: { shares: { endedTokenHashes }, poke: false } });
      return c.json({ ok: true });
    },
  );

const shareOpened = linkOpenings("share.refused");

export const publicShareRoutes = new Hono<AppEnv>().get(
  "/:token",
  declared({
    permission: "public",
    summary: "What a share link shows: the vehicle's name and latest position",
    tag: "Sharing",
    response: sharedVehicleSchema,
  }),
  async (c) => {
    c.header("X-Robots-Tag", "noindex, nofollow");
    shareOpened(c);
    const token = c.req.param("token");
    if (token.length > 100) throw notFound("No such share link");
    return c.json(await sharedVehicle(c, await sha256Hex(token)));
  },
);

/**
 * The page's answer comes from the link's workspace object (party/room/share-views.ts): it keeps the
 * link and the live position, so a poll costs no D1 read in the steady state. Which workspace a
 * token belongs to never changes: each isolate remembers it after one read.
 */
async function sharedVehicle(c: Context<AppEnv>, tokenHash: string): Promise<SharedVehicle> {
  const workspaceId = await workspaceOfToken(c, tokenHash);
  if (!workspaceId) throw notFound("No such share link");
  const answer = await shareView(c.env, workspaceId, tokenHash);
  if (!answer.ok) throw new ApiError(answer.status, answer.code, answer.message);
  return answer.body;
}

const tokenWorkspaces = new Map<string, string>();
const MAX_TOKEN_WORKSPACES = 10_000;
async function workspaceOfToken(c: Context<AppEnv>, tokenHash: string): Promise<string | null> {
  const known = tokenWorkspaces.get(tokenHash);
  if (known) return known;
  const row = await c.var.db
    .select({ workspaceId: vehicleShares.workspaceId })
    .from(vehicleShares)
    .where(eq(vehicleShares.tokenHash, tokenHash))
    .get();
  if (!row) return null; // unknown tokens are not remembered: the map holds only real links
  if (tokenWorkspaces.size >= MAX_TOKEN_WORKSPACES) tokenWorkspaces.clear();
  tokenWorkspaces.set(tokenHash, row.workspaceId);
  return row.workspaceId;
}

/** The vehicle `:vehicleId` of the caller's workspace; 404 for another workspace's, as for one that does not exist. */
async function vehicleOf(c: Context<AppEnv>, workspaceId: string) {
  const vehicleId = c.req.param("vehicleId") ?? "";
  const row = await c.var.db
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
    .get();
  if (!row) throw notFound("No such vehicle in this workspace");
  return row.id;
}
