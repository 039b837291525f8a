import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { telemetry, vehicleEvents } from "../../db/schema";
import { call, userWithWorkspace } from "../test/factories";
import commute from "./fixtures/commute";
import dataGap from "./fixtures/data-gap";
import longIdle from "./fixtures/long-idle";
import { readTrack } from "./fixtures/csv-track";
import tow from "./fixtures/tow";
import {
  advance,
  distanceMetres,
  GAP_MS,
  initialState,
  statusOf,
  type EventUpsert,
  type MotionReport,
} from "../../domain/fold/motion";

/** Runs a recorded track through the detector: the final version of each event, and each report's status. */
function detect(track: MotionReport[]) {
  let n = 0;
  const newId = () => `e${String(++n).padStart(3, "0")}`;
  const first = initialState(track[0]!, newId);
  let state = first.state;
  const events = new Map<string, EventUpsert>(first.events.map((e) => [e.id, e]));
  const statuses = [statusOf(track[0]!, state)];
  for (const r of track.slice(1)) {
    const step = advance(state, r, newId);
    state = step.state;
    for (const e of step.events) events.set(e.id, e);
    statuses.push(statusOf(r, state));
  }
  return { events: [...events.values()].sort((a, b) => a.id.localeCompare(b.id)), statuses };
}

/** Consecutive statuses with repeats collapsed, e.g. off, idle, moving. */
const runs = (statuses: string[]) => statuses.filter((s, i) => s !== statuses[i - 1]);
const minutes = (e: EventUpsert) => (e.endTime! - e.startTime) / 60_000;

describe("trip and stop detection on recorded tracks", () => {
  it("commute: home, a trip with a red light, a coffee stop, a second trip, parked at work", () => {
    const track = readTrack(commute);
    const { events, statuses } = detect(track);
    expect(events.map((e) => e.type)).toEqual(["STOP", "TRANSIT", "STOP", "TRANSIT", "STOP"]);
    const [home, first, coffee, second, work] = events;
    // Every event starts where the previous one ended: the timeline has no holes.
    for (let i = 1; i < events.length; i++) expect(events[i]!.startTime).toBe(events[i - 1]!.endTime);
    expect(home!.startTime).toBe(track[0]!.time);
    // The 40 s red light is part of the first trip; the ~1.8 km drive is measured as such.
    expect(first!.distance).toBeGreaterThan(1600);
    expect(first!.distance).toBeLessThan(2000);
    expect(first!.averageSpeed).toBeGreaterThan(5);
    // The coffee stop lasts its 7 minutes and a half, give or take the 180 s it takes to detect.
    expect(minutes(coffee!)).toBeGreaterThan(6.5);
    expect(minutes(coffee!)).toBeLessThan(11);
    expect(distanceMetres(coffee!, { latitude: 41.8818, longitude: -87.6474 })).toBeLessThan(250);
    expect(second!.distance).toBeGreaterThan(3000);
    expect(work!.endTime).toBeNull();
    expect(distanceMetres(work!, { latitude: 41.9104, longitude: -87.6676 })).toBeLessThan(250);
    // Parked, warming up, driving, waiting at the light, driving, coffee, driving, parked.
    expect(runs(statuses)).toEqual(["off", "idle", "moving", "idle", "moving", "off", "idle", "moving", "off"]);
  });

  it("long idle: 20 minutes standing with the engine on is a stop, shown as idle", () => {
    const { events, statuses } = detect(readTrack(longIdle));
    expect(events.map((e) => e.type)).toEqual(["TRANSIT", "STOP", "TRANSIT", "STOP"]);
    expect(minutes(events[1]!)).toBeGreaterThan(19);
    expect(minutes(events[1]!)).toBeLessThan(24);
    expect(runs(statuses)).toEqual(["moving", "idle", "moving", "off"]);
  });

  it("tow: moving with the ignition off between two stops is a TOW, shown as towing", () => {
    const track = readTrack(tow);
    const { events, statuses } = detect(track);
    expect(events.map((e) => e.type)).toEqual(["STOP", "TOW", "STOP"]);
    // The tow covered 1.6 km. The trip ends where the vehicle came within 200 m of where it
    // stopped (Traccar's rule), so its last stretch of under 200 m belongs to the stop.
    expect(events[1]!.distance).toBeGreaterThan(1600 - 250);
    expect(events[1]!.distance).toBeLessThan(1650);
    expect(runs(statuses)).toEqual(["off", "towing", "off"]);
  });

  it("data gap: 75 silent minutes are a stop from the last report before to the first after", () => {
    const track = readTrack(dataGap);
    const gapAt = track.findIndex((r, i) => i > 0 && r.time - track[i - 1]!.time > GAP_MS);
    expect(gapAt).toBeGreaterThan(0);
    const { events } = detect(track);
    expect(events.map((e) => e.type)).toEqual(["TRANSIT", "STOP", "TRANSIT", "STOP"]);
    expect(events[1]).toMatchObject({ startTime: track[gapAt - 1]!.time, endTime: track[gapAt]!.time });
    // The trip before the gap is not stretched over it.
    expect(events[0]!.endTime).toBe(track[gapAt - 1]!.time);
    expect(events[0]!.distance).toBeLessThan(1700);
  });
});

describe("a recorded track through the ingestion endpoint", () => {
  it("stores the tow's timeline and the vehicle's status as the reports arrive", async () => {
    const a = await userWithWorkspace();
    const order = await call("/api/beacons/order", {
      method: "POST",
      token: a.token,
      json: { workspaceId: a.workspaceId, count: 1 },
    });
    const [beacon] = (await order.json()) as { id: string; vehicleId: string }[];
    const db = database(env.DB);
    const track = readTrack(tow);
    for (const r of track) {
      const query = new URLSearchParams({
        id: beacon!.id,
        lat: String(r.latitude),
        lon: String(r.longitude),
        timestamp: String(r.time / 1000),
        speed: String((r.speed ?? 0) / 0.514444),
        ignition: String(r.ignition),
      });
      expect((await call(`/api/ingest/osmand?${query}`)).status).toBe(200);
      if (r === track[30])
        expect(
          (await db.select().from(telemetry).where(eq(telemetry.vehicleId, beacon!.vehicleId)).get())!.status,
        ).toBe("towing");
    }
    const stored = await db
      .select()
      .from(vehicleEvents)
      .where(eq(vehicleEvents.vehicleId, beacon!.vehicleId))
      .orderBy(asc(vehicleEvents.startTime))
      .all();
    expect(stored.map((e) => e.type)).toEqual(["STOP", "TOW", "STOP"]);
    expect(stored[2]!.endTime).toBeNull();
    expect((await db.select().from(telemetry).where(eq(telemetry.vehicleId, beacon!.vehicleId)).get())!.status).toBe(
      "off",
    );
  }, 60_000);
});
