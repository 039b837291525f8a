import { and, eq } from "drizzle-orm";
import { SHARE_ENDED, SHARE_EXPIRED, type SharedVehicle } from "../../shared/fleet/shares";
import { metresPerSecondToMph } from "../../shared/units/units";
import type { Db } from "../../db/client";
import { telemetry, vehicles, vehicleShares } from "../../db/schema";
import type { Latest } from "../../domain/fold/fold";

/** What an open share page is answered: the page's JSON, or the API error it shows. */
export type ShareViewAnswer =
  { ok: true; body: SharedVehicle } | { ok: false; status: 404 | 410; code: string; message: string };

/** Where the vehicle is, as the share page shows it (the live fleet's latest, or D1's telemetry row). */
type Fix = Pick<Latest, "latitude" | "longitude" | "recordedAt"> & { speed: number | null };

/** A link as the object keeps it: what D1 said, and when. */
interface KnownShare {
  vehicleId: string;
  name: string;
  deleted: boolean;
  expiresAt: number;
  endedAt: number | null;
  /** The vehicle's position in D1 when read (used only while the live fleet knows none). */
  stored: Fix | null;
  readAt: number;
}

/**
 * The open share pages of this workspace (/share/{token}, docs/decisions/0035), answered by its
 * object: the link is read from D1 once and kept, re-read at most once a minute (a renamed or
 * deleted vehicle shows within that), and the position is the live fleet's, fresher than D1's.
 * Ending a link tells this object (`forget`), so the next poll of any open page reads D1 and
 * answers 410: ending stays immediate. An open share costs about one D1 read a minute, however
 * many pages poll it, instead of one per poll (20 a minute per page).
 */
export class ShareViews {
  static readonly REREAD_MS = 60_000;
  static readonly MAX_KNOWN = 1_000;
  readonly #known = new Map<string, KnownShare>();

  constructor(
    private readonly db: () => Db,
    private readonly workspaceId: string,
    private readonly livePosition: (vehicleId: string) => Fix | null | undefined,
  ) {}

  async answer(tokenHash: string, now = Date.now()): Promise<ShareViewAnswer> {
    const share = await this.#share(tokenHash, now);
    if (!share || share.deleted) return { ok: false, status: 404, code: "not_found", message: "No such share link" };
    if (share.endedAt !== null)
      return { ok: false, status: 410, code: SHARE_ENDED, message: "This link was ended by the vehicle's operator" };
    if (share.expiresAt <= now)
      return { ok: false, status: 410, code: SHARE_EXPIRED, message: "This link has expired" };
    const at = this.livePosition(share.vehicleId) ?? share.stored;
    const position = at
      ? {
          lat: at.latitude,
          lng: at.longitude,
          at: at.recordedAt,
          speedMph: Math.round(metresPerSecondToMph(at.speed ?? 0) * 10) / 10,
        }
      : null;
    return { ok: true, body: { vehicle: { name: share.name }, position, expiresAt: share.expiresAt } };
  }

  /** A link was ended (or anything else changed it): its next poll reads D1. */
  forget(tokenHash: string): void {
    this.#known.delete(tokenHash);
  }

  async #share(tokenHash: string, now: number): Promise<KnownShare | null> {
    const known = this.#known.get(tokenHash);
    if (known && now - known.readAt < ShareViews.REREAD_MS) return known;
    const row = await this.db()
      .select({
        vehicleId: vehicleShares.vehicleId,
        expiresAt: vehicleShares.expiresAt,
        endedAt: vehicleShares.endedAt,
        name: vehicles.name,
        deleted: vehicles.deleted,
        latitude: telemetry.latitude,
        longitude: telemetry.longitude,
        recordedAt: telemetry.recordedAt,
        speed: telemetry.speed,
      })
      .from(vehicleShares)
      .innerJoin(
        vehicles,
        and(eq(vehicles.id, vehicleShares.vehicleId), eq(vehicles.workspaceId, vehicleShares.workspaceId)),
      )
      .leftJoin(
        telemetry,
        and(
          eq(telemetry.vehicleId, vehicleShares.vehicleId),
          eq(telemetry.workspaceId, vehicleShares.workspaceId),
          eq(telemetry.deleted, false),
        ),
      )
      .where(and(eq(vehicleShares.tokenHash, tokenHash), eq(vehicleShares.workspaceId, this.workspaceId)))
      .get();
    if (!row) {
      this.#known.delete(tokenHash);
      return null;
    }
    const { latitude, longitude, recordedAt, speed, ...link } = row;
    const stored =
      latitude !== null && longitude !== null && recordedAt !== null
        ? { latitude, longitude, recordedAt, speed }
        : null;
    const share = { ...link, stored, readAt: now };
    if (!this.#known.has(tokenHash) && this.#known.size >= ShareViews.MAX_KNOWN)
      this.#known.delete(this.#known.keys().next().value!);
    this.#known.set(tokenHash, share);
    return share;
  }
}
