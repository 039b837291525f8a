import { glide, GLIDE_MS, type LngLat } from "./geometry";

/**
 * The selected vehicle's route as the route layer draws it, pure so it is unit-tested: today's
 * history, then each newer report appended, the last stretch gliding with the beacon (the same
 * glide, started by the same change) so the line always ends where the beacon is drawn.
 */
export class GrowingRoute {
  #path: LngLat[] = [];
  #lastTime = -Infinity;
  #gliding: { from: LngLat; to: LngLat; startedAt: number } | null = null;

  get points(): readonly LngLat[] {
    return this.#path;
  }

  /** Whether the last stretch was still gliding when the line was last read. */
  get gliding(): boolean {
    return this.#gliding !== null;
  }

  /**
   * A report's point, if it is newer than the route's last: appended, gliding from the previous
   * point from `now` when `animate` (a live movement), else drawn there at once. False when older.
   */
  append(point: LngLat, recordedAt: number, animate: boolean, now: number): boolean {
    if (recordedAt <= this.#lastTime) return false;
    const from = this.#path[this.#path.length - 1];
    this.#path = [...this.#path, point];
    this.#lastTime = recordedAt;
    this.#gliding = animate && from ? { from, to: point, startedAt: now } : null;
    return true;
  }

  /** The history's points (oldest first), before the reports that arrived while it was being read. */
  prependHistory(points: readonly { t: number; lng: number; lat: number }[]) {
    this.#path = [...points.map((p) => ({ lng: p.lng, lat: p.lat })), ...this.#path];
    this.#lastTime = Math.max(this.#lastTime, points.at(-1)?.t ?? -Infinity);
  }

  /** The time of the newest point, -Infinity while empty. */
  get lastTime(): number {
    return this.#lastTime;
  }

  /** The line at `now`: every point, the last where its glide has it (a lone point twice, a line mapbox-gl draws). */
  lineAt(now: number): [number, number][] {
    const coordinates: [number, number][] = this.#path.map((p) => [p.lng, p.lat]);
    const g = this.#gliding;
    if (g) {
      const end = glide(g.from, g.to, now - g.startedAt);
      coordinates[coordinates.length - 1] = [end.lng, end.lat];
      if (now - g.startedAt >= GLIDE_MS) this.#gliding = null;
    }
    return coordinates.length === 1 ? [coordinates[0]!, coordinates[0]!] : coordinates;
  }
}
