import { and, eq, type SQL } from "drizzle-orm";
import type { Db, LiveWrites } from "../../db/client";
import { vehicleEvents } from "../../db/schema";
import { commitWrite } from "../../db/writer";
import type { AlarmTask } from "../alarm/alarm-task";
import type { StopQueue } from "./stop-queue";
import { reverseGeocode } from "./reverse-geocode";

/** Stops wait this long to be addressed together (with the object's idle flush pace), so a busy fleet's stops cost no alarm each. */
export const STOP_ADDRESS_DELAY_MS = 10_000;
/** Stops addressed per run: a run stays short (Mapbox is asked one stop at a time); the rest wait for the next. */
export const STOPS_PER_RUN = 25;
/** After a run that failed (D1 unreachable), the next is tried no sooner than this. */
const RETRY_MS = 60_000;

export interface StopAddressDeps {
  workspaceId: string;
  db: () => Db;
  stops: () => StopQueue;
  /** Mapbox's token ("" : no geocoder; waiting stops are dropped). */
  token: () => string;
  settle: () => Promise<void>;
  announce: () => Promise<void>;
}

/**
 * Stop addresses as a task of the workspace object's alarm (docs/decisions/0059): the stops the
 * object's reports opened are queued in its storage, and this job asks the geocoder for their
 * addresses and writes them to `vehicle_events` through the object (the live bump, as its flush
 * does), so no second writer touches the table. A geocoder that fails or knows no address leaves
 * the stop without one; it is not asked again.
 */
export class StopAddressTask implements AlarmTask {
  readonly name = "stop addresses";
  #notBefore = 0;

  constructor(private readonly deps: StopAddressDeps) {}

  dueAt(): number | null {
    const oldest = this.deps.stops().oldest();
    return oldest === null ? null : Math.max(oldest + STOP_ADDRESS_DELAY_MS, this.#notBefore);
  }

  async run(now: number): Promise<void> {
    this.#notBefore = now + RETRY_MS;
    const queue = this.deps.stops();
    const stops = queue.take(STOPS_PER_RUN);
    const token = this.deps.token();
    if (token) await this.#address(token, stops);
    queue.remove(stops.map((s) => s.id));
    this.#notBefore = 0;
  }

  async #address(token: string, stops: ReturnType<StopQueue["take"]>) {
    const { db, workspaceId } = this.deps;
    // The stop's row reaches D1 first: the address then updates a row that exists.
    await this.deps.settle();
    const found: { id: string; address: NonNullable<Awaited<ReturnType<typeof reverseGeocode>>> }[] = [];
    for (const stop of stops) {
      const address = await reverseGeocode(token, stop.latitude, stop.longitude);
      if (address) found.push({ id: stop.id, address });
    }
    if (!found.length) return;
    const writes = (stamp: SQL<number>, live: LiveWrites) =>
      found.map(({ id, address }) =>
        live
          .update(vehicleEvents)
          .set({ ...address, version: stamp })
          .where(and(eq(vehicleEvents.id, id), eq(vehicleEvents.workspaceId, workspaceId))),
      );
    await commitWrite(db(), workspaceId, writes, { bump: "live", announce: () => this.deps.announce() });
  }
}
