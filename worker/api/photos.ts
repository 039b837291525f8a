import { Hono } from "hono";
import { z } from "zod";
import {
  PHOTO_TYPES,
  PHOTO_UPLOADS_PER_MINUTE,
  formatBytes,
  photoIdFor,
  photoIdSchema,
  sniffImageType,
  type PhotoCreated,
  type PhotoUsage,
} from "../../shared/maintenance/photos";
import { requireSession, workspaceSession } from "../auth/session";
import { LIMITS } from "../auth/rate-limit";
import { ApiError, limitReached, notFound } from "../lib/errors";
import { insertPhotoUnderQuota, photoIn, photoObjectKey, photoUsage } from "../photos/photo-store";
import type { AppEnv } from "../types";
import { photoCreated, badImage, photoUsageSchema } from "./maintenance-answers";
import { declared } from "./route-declaration/declare";

/**
 * Photos (DESIGN.md "Maintenance"; docs/decisions/0030, 0042): the body is the image itself. The
 * size limit (10 MB -> 413) is the body limit of worker/api/index.ts; the type is checked twice:
 * the header must name an accepted image type and the bytes must be one (415 otherwise).
 *
 * Bounds (issue 39): at most PHOTO_UPLOADS_PER_MINUTE uploads per member and workspace (429 with
 * Retry-After), and the workspace's photos fit its quota (409 limit_reached). The id is the
 * server's, `photoIdFor(workspace, uploader, ref)`: the device sends only its own reference, so
 * nobody can upload under an id a record already names, and an upload creates, never replaces.
 * Bytes go to R2 first, then the row: a photo is only served once both exist, and a refused row
 * removes the bytes again.
 */
const unsupported = (message: string) => new ApiError(415, "unsupported_media_type", message);

export const uploadQuery = z
  .object({ ref: photoIdSchema.optional() })
  .strict("Send ?ref=<uuid> (the device's reference): the server chooses the photo's id");

const overQuota = (usage: { usedBytes: number; allowedBytes: number }) =>
  limitReached(
    `This workspace's photos use ${formatBytes(usage.usedBytes)} of its ${formatBytes(usage.allowedBytes)}; this photo does not fit`,
  );

export const photoRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary:
        "Upload a photo (the body is the image). The server chooses its id from the uploader and `ref` (the device's own reference, for a retry): 200 when that was uploaded already",
      tag: "Maintenance",
      query: uploadQuery,
      response: photoCreated,
      status: 201,
      binaryBody: PHOTO_TYPES,
      errors: badImage,
      // Per member and workspace: a phone's queue retries after Retry-After.
      limits: [
        {
          limit: LIMITS.photoUploads,
          per: "member of the workspace",
          key: (c) => {
            const { workspaceId, userId } = workspaceSession(c.var.session);
            return `${workspaceId}:${userId}`;
          },
        },
      ],
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const declared = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (!(PHOTO_TYPES as readonly string[]).includes(declared)) throw unsupported("Send a JPEG, PNG or WebP image");
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const type = sniffImageType(bytes.subarray(0, 16));
      if (!type) throw unsupported("The body is not a JPEG, PNG or WebP image");

      const id = await photoIdFor(workspaceId, userId, c.req.valid("query").ref ?? crypto.randomUUID());
      const db = c.var.db;
      // The uploader's own retry (the browser's queue after a lost answer): the same photo, never replaced.
      if (await photoIn(db, workspaceId, id)) return c.json({ id } satisfies PhotoCreated, 200);
      const usage = await photoUsage(db, workspaceId);
      if (usage.usedBytes + bytes.byteLength > usage.allowedBytes) throw overQuota(usage);

      const key = photoObjectKey(workspaceId, id);
      await c.env.PHOTOS.put(key, bytes, { httpMetadata: { contentType: type } });
      const photo = { id, workspaceId, contentType: type, size: bytes.byteLength, createdBy: userId };
      const inserted = await insertPhotoUnderQuota(db, photo).catch(async (error: unknown) => {
        await c.env.PHOTOS.delete(key);
        throw error;
      });
      if (inserted) return c.json({ id } satisfies PhotoCreated, 201);
      // A racing retry of the same upload stored it first (fine), or parallel uploads filled the quota.
      if (await photoIn(db, workspaceId, id)) return c.json({ id } satisfies PhotoCreated, 200);
      await c.env.PHOTOS.delete(key);
      throw overQuota(await photoUsage(db, workspaceId));
    },
  )
  .get(
    "/usage",
    declared({
      permission: "workspace.view",
      summary: "The workspace's photo storage: bytes used, its quota, and the uploads a member may make a minute",
      tag: "Maintenance",
      response: photoUsageSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const usage = await photoUsage(c.var.db, workspaceId);
      return c.json({ ...usage, uploadsPerMinute: PHOTO_UPLOADS_PER_MINUTE } satisfies PhotoUsage);
    },
  )
  .get(
    "/:id",
    declared({
      permission: "workspace.view",
      summary: "A photo's bytes",
      tag: "Maintenance",
      binaryResponse: PHOTO_TYPES,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const id = c.req.param("id");
      const row = photoIdSchema.safeParse(id).success ? await photoIn(c.var.db, workspaceId, id) : null;
      if (!row) throw notFound("No such photo in this workspace");
      const object = await c.env.PHOTOS.get(photoObjectKey(workspaceId, row.id));
      if (!object) throw notFound("No such photo in this workspace");
      return c.body(object.body, 200, { "Content-Type": row.contentType, "Content-Length": String(row.size) });
    },
  );
