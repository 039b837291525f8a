/** A stop waiting for its address, as the queue holds it. */
export interface QueuedStop {
  id: string;
  latitude: number;
  longitude: number;
}

/**
 * The stops a report opened that still need an address (docs/decisions/0059), in the object's
 * SQLite: written in the same commit as the report that opened them, so an acknowledged stop is
 * never lost to the geocoder (a `waitUntil` after the answer could be).
 */
export class StopQueue {
  /** The oldest waiting stop's queue time, as last read or written (undefined: read it): asked at every ingestion. */
  #oldest: number | null | undefined = undefined;

  constructor(private readonly storage: DurableObjectStorage) {
    storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS stops_to_address (id TEXT PRIMARY KEY, latitude REAL NOT NULL, longitude REAL NOT NULL, queued_at INTEGER NOT NULL)",
    );
  }

  add(stops: readonly QueuedStop[], now: number) {
    for (const s of stops)
      this.storage.sql.exec(
        "INSERT OR IGNORE INTO stops_to_address (id, latitude, longitude, queued_at) VALUES (?, ?, ?, ?)",
        s.id,
        s.latitude,
        s.longitude,
        now,
      );
    if (stops.length && (this.#oldest === null || this.#oldest === undefined)) this.#oldest = undefined;
  }

  /** When the oldest waiting stop was queued (null: none waits). */
  oldest(): number | null {
    if (this.#oldest === undefined)
      this.#oldest = this.storage.sql
        .exec<{ at: number | null }>("SELECT min(queued_at) AS at FROM stops_to_address")
        .one().at;
    return this.#oldest;
  }

  /** The oldest `limit` waiting stops. */
  take(limit: number): QueuedStop[] {
    return this.storage.sql
      .exec<{ id: string; latitude: number; longitude: number }>(
        "SELECT id, latitude, longitude FROM stops_to_address ORDER BY queued_at, id LIMIT ?",
        limit,
      )
      .toArray()
      .map((r) => ({ id: r.id, latitude: r.latitude, longitude: r.longitude }));
  }

  remove(ids: readonly string[]) {
    for (const id of ids) this.storage.sql.exec("DELETE FROM stops_to_address WHERE id = ?", id);
    this.#oldest = undefined;
  }
}
