import { Hono } from "hono";
import { z } from "zod";
import { PHOTO_TYPES, photoIdSchema, sniffImageType, type PhotoCreated } from "../../shared/photos";
import { requireSession, workspaceSession } from "../auth/session";
import { photos } from "../../db/schema";
import { ApiError, notFound } from "../lib/errors";
import { zod } from "../lib/validate";
import { photoIn, photoObjectKey } from "../photos/photo-store";
import type { AppEnv } from "../types";

/**
 * Photos (DESIGN.md "Maintenance"; docs/decisions/0030): the body is the image itself. The size
 * limit (10 MB -> 413) is the body limit of worker/api/index.ts; the type is checked twice: the
 * header must name an accepted image type and the bytes must be one (415 otherwise). Bytes go
 * to R2 first, then the row: a photo is only served once both exist, and a failed row removes
 * the bytes again.
 */
const unsupported = (message: string) => new ApiError(415, "unsupported_media_type", message);

export const uploadQuery = z.object({ id: photoIdSchema.optional() });

export const photoRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post("/", zod("query", uploadQuery), async (c) => {
    const { workspaceId, userId } = workspaceSession(c.var.session);
    const declared = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!(PHOTO_TYPES as readonly string[]).includes(declared)) throw unsupported("Send a JPEG, PNG or WebP image");
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const type = sniffImageType(bytes.subarray(0, 16));
    if (!type) throw unsupported("The body is not a JPEG, PNG or WebP image");

    const id = c.req.valid("query").id ?? crypto.randomUUID();
    const db = c.var.db;
    const existing = await photoIn(db, workspaceId, id);
    // A retried upload (the browser's queue after a lost answer) is the same photo: done already.
    if (existing) return c.json({ id } satisfies PhotoCreated, 200);

    const key = photoObjectKey(workspaceId, id);
    await c.env.PHOTOS.put(key, bytes, { httpMetadata: { contentType: type } });
    const inserted = await db
      .insert(photos)
      .values({ id, workspaceId, contentType: type, size: bytes.byteLength, createdBy: userId })
      .onConflictDoNothing()
      .returning({ id: photos.id })
      .catch(async (error: unknown) => {
        await c.env.PHOTOS.delete(key);
        throw error;
      });
    if (inserted.length === 0) {
      // The id is taken: by this workspace's racing retry (fine) or by another workspace (refused).
      if (await photoIn(db, workspaceId, id)) return c.json({ id } satisfies PhotoCreated, 200);
      await c.env.PHOTOS.delete(key);
      throw new ApiError(409, "conflict", "This photo id is taken; choose another");
    }
    return c.json({ id } satisfies PhotoCreated, 201);
  })
  .get("/:id", async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const id = c.req.param("id");
    const row = photoIdSchema.safeParse(id).success ? await photoIn(c.var.db, workspaceId, id) : null;
    if (!row) throw notFound("No such photo in this workspace");
    const object = await c.env.PHOTOS.get(photoObjectKey(workspaceId, row.id));
    if (!object) throw notFound("No such photo in this workspace");
    return c.body(object.body, 200, { "Content-Type": row.contentType, "Content-Length": String(row.size) });
  });
