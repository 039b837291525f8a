import { and, eq, isNotNull } from "drizzle-orm";
import type { AlertRule } from "../../shared/alerts/alert-rules";
import type { FleetModule } from "../../domain/fold/fold";
import { placesAlertsModule, type WorkspaceWatch } from "../../domain/alerts/module";
import { PlaceIndex } from "../../domain/places/place-index";
import type { Db } from "../../db/client";
import { alertRules, places, vehicles, workspaces } from "../../db/schema";

/**
 * What a workspace's object watches while it folds reports (docs/decisions/0019, 0027): its places
 * (behind their R-tree), its alert rules, its time zone and its vehicles' fuel tanks (0050). The object holds them in memory and in
 * its own storage, so ingestion reads no D1 for them, and reloads them from D1 only when the Worker
 * says they changed (`FleetRoom.changed`, the one announcer): no TTL, no per-isolate cache that an
 * edit in another isolate cannot reach. D1 is read once ever per object otherwise (its first report).
 */
export interface WatchRows {
  places: { id: string; geometry: (typeof places.$inferSelect)["geometry"] }[];
  rules: AlertRule[];
  timeZone: string | null;
  /** The vehicles' fuel tanks, litres, where set (absent in a copy stored before issue 42). */
  tanks?: Record<string, number>;
}

/** The workspace's places, rules and time zone as D1 holds them (one batch). */
export async function readWatchRows(db: Db, workspaceId: string): Promise<WatchRows> {
  const [placeRows, ruleRows, zone, tankRows] = await db.batch([
    db
      .select({ id: places.id, geometry: places.geometry })
      .from(places)
      .where(and(eq(places.workspaceId, workspaceId), eq(places.deleted, false))),
    db
      .select({ id: alertRules.id, config: alertRules.config })
      .from(alertRules)
      .where(and(eq(alertRules.workspaceId, workspaceId), eq(alertRules.deleted, false))),
    db.select({ timeZone: workspaces.timeZone }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db
      .select({ id: vehicles.id, litres: vehicles.fuelTankLitres })
      .from(vehicles)
      .where(
        and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false), isNotNull(vehicles.fuelTankLitres)),
      ),
  ]);
  return {
    places: placeRows,
    rules: ruleRows.map((r) => ({ ...r.config, id: r.id })),
    timeZone: zone[0]?.timeZone ?? null,
    tanks: Object.fromEntries(tankRows.map((v) => [v.id, v.litres!])),
  };
}

/**
 * The watch as the object keeps it: rows in its SQLite (one JSON row), the index built in memory.
 * `load` answers from memory, else storage, else D1 (then stored); `reload` reads D1 again.
 */
export class ObjectWatch {
  #rows: WatchRows | null = null;
  #watch: WorkspaceWatch | null = null;
  /** A reload that failed: the next use tries D1 again (falling back to what is stored). */
  #stale = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly workspaceId: string,
    private readonly db: () => Db,
  ) {
    storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS watch_rows (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL)",
    );
  }

  async rows(): Promise<WatchRows> {
    if (this.#stale)
      await this.reload().catch((error: unknown) =>
        console.error("watch: reload from D1 failed; the stored copy is used:", error),
      );
    if (this.#rows) return this.#rows;
    const stored = this.storage.sql.exec<{ body: string }>("SELECT body FROM watch_rows WHERE id = 1").toArray()[0];
    if (stored) return (this.#rows = JSON.parse(stored.body) as WatchRows);
    await this.reload();
    return this.#rows!;
  }

  /** Reads D1 again and keeps the result (memory and storage); on failure, marks the watch stale. */
  async reload(): Promise<WatchRows> {
    try {
      const rows = await readWatchRows(this.db(), this.workspaceId);
      this.storage.sql.exec("INSERT OR REPLACE INTO watch_rows (id, body) VALUES (1, ?)", JSON.stringify(rows));
      this.#rows = rows;
      this.#watch = null;
      this.#stale = false;
      return rows;
    } catch (error) {
      this.#stale = true;
      throw error;
    }
  }

  /** The places-and-alerts module over the watch (the index built once per change). */
  async modules(): Promise<FleetModule[]> {
    const rows = await this.rows();
    const watch = (this.#watch ??= { index: new PlaceIndex(rows.places), rules: rows.rules, tanks: rows.tanks ?? {} });
    return [placesAlertsModule(() => watch) as FleetModule];
  }
}
