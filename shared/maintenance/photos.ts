import { z } from "zod";

/**
 * Photos of issues and inspections (DESIGN.md "Maintenance", docs/decisions/0030, 0042). A photo's
 * id is the server's: `POST /api/photos?ref=<uuid>` stores it under `photoIdFor(workspace,
 * uploader, ref)`, which the device can work out offline (so a record made offline names the
 * photo at once) but which nobody else can make: another member who sees the id cannot upload
 * other bytes under it, and an upload only ever creates.
 */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Bytes of photos a workspace may keep unless its own quota says otherwise (workspaces.photo_quota_bytes). */
export const PHOTO_QUOTA_BYTES = 1_000_000_000;
/** Uploads per member and workspace per minute (a phone's queue sends one at a time, and retries). */
export const PHOTO_UPLOADS_PER_MINUTE = 30;
/** A photo named by no record this long after its upload is deleted. */
export const UNATTACHED_PHOTO_MS = 24 * 60 * 60 * 1000;
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

/** `GET /api/photos/usage`: the workspace's photo storage, shown on the workspace page as "used / allowed". */
export interface PhotoUsage {
  usedBytes: number;
  allowedBytes: number;
  uploadsPerMinute: number;
}

/**
 * The id the server gives a photo uploaded with `ref` by `userId` into `workspaceId`: SHA-256 of
 * the three, as a UUID (version 8, "custom"). The same on the device and the server; a different
 * uploader or workspace gets a different id, and the hash cannot be steered to a given one.
 */
export async function photoIdFor(workspaceId: string, userId: string, ref: string): Promise<string> {
  const input = new TextEncoder().encode(`fleet-photo\n${workspaceId}\n${userId}\n${ref}`);
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", input)).slice(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** "12.3 MB": a size for people (decimal units, as phones and cloud storage count them). */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}
