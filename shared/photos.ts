import { z } from "zod";

/**
 * Photos of issues and inspections (DESIGN.md "Maintenance", docs/decisions/0030). The browser
 * may choose a photo's id (a UUID) before it uploads it, so a record made offline can name the
 * photo at once; `POST /api/photos?id=<uuid>` stores it under that id.
 */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

export const photoIdSchema = z.string().uuid("A photo id is a UUID");
/** At most this many photos per issue or comment. */
export const MAX_PHOTOS = 10;
export const photoIdsSchema = z.array(photoIdSchema).max(MAX_PHOTOS, `At most ${MAX_PHOTOS} photos`);

/** The image type the bytes themselves say (magic numbers), or null: a header alone is not trusted. */
export function sniffImageType(head: Uint8Array): PhotoType | null {
  const at = (i: number) => head[i];
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((b, i) => at(i) === b)) return "image/png";
  const ascii = (from: number, text: string) => [...text].every((ch, i) => at(from + i) === ch.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  return null;
}

export interface PhotoCreated {
  id: string;
}
