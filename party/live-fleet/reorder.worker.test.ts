import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { seededRandom } from "../../scripts/sim/random";
import { database } from "../../db/client";
import {
  alertOutbox,
  alerts,
  eventRollups,
  telemetry,
  vehicleDayRollups,
  vehicleEvents,
  vehicles,
} from "../../db/schema";
import { REORDER_WINDOW_MS } from "../../domain/fold/late-reports";
import { call, report, userWithWorkspace, workspaceWithBeacon } from "../../worker/test/factories";
import { ingestRequests, roomOf } from "../../worker/test/ingest";
import { closeSockets, connect, roundTrip } from "../../worker/test/sockets";
import { POKE_MESSAGE } from "../../shared/sync/room-protocol";
import { POKE_INTERVAL_MS } from "../room/poke-pacer";
import commute from "../../worker/fleet/fixtures/commute";
import { parseOsmandParams, type Report } from "../../domain/devices/osmand";

// Late reports folded in device-time order (docs/decisions/0037), through the real ingestion
// endpoint and the workspace object: a recorded track sent in order to one workspace and
// reordered (each report overtaken by reports up to 50 s newer) to another gives the same
// trips, stops, odometer, engine hours, rollups and alerts in D1, with no trip twice.
const db = () => database(env.DB);
/** The recorded track, moved to end an hour ago (the same shift for both workspaces). */
const track: Report[] = (() => {
  const [header, ...lines] = commute.trim().split("\n");
  const columns = header!.split(",");
  const fixes = lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    return parseOsmandParams({ id: "recorded", timestamp: params.time!, ...params });
  });
  const shift = Date.now() - 3_600_000 - fixes.at(-1)!.time;
  return fixes.map((f) => ({ ...f, time: f.time + shift }));
})();

async function workspaceWatching(center: Report) {
  const a = await userWithWorkspace();
  const ordered = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  const [beacon] = (await ordered.json()) as { id: string; vehicleId: string }[];
  const geometry = { type: "Circle", center: [center.longitude, center.latitude], radius: 150 };
  const place = await call("/api/places", { method: "POST", token: a.token, json: { name: "Depot", geometry } });
  expect(place.status).toBe(201);
  const notify = { webhookUrl: "https://hooks.example.test/fleet" };
  for (const rule of [
    { type: "place_enter" },
    { type: "place_exit" },
    { type: "speeding", speedMph: 20, minSeconds: 15 },
    { type: "idling", minutes: 1 },
  ]) {
    const res = await call("/api/alert-rules", { method: "POST", token: a.token, json: { ...rule, notify } });
    expect(res.status).toBe(201);
  }
  return { ...a, beacon: beacon! };
}

/** Posts the reports as the JSON variant, `perRequest` at a time, in the order given; answers every outcome. */
async function send(deviceId: string, reports: Report[], perRequest: number) {
  const outcomes: string[] = [];
  for (let i = 0; i < reports.length; i += perRequest) {
    const location = reports.slice(i, i + perRequest).map((r) => ({
      timestamp: r.time,
      coords: { latitude: r.latitude, longitude: r.longitude, speed: r.speed, accuracy: r.accuracy },
      extras: r.ignition === null ? {} : { ignition: r.ignition },
    }));
    const res = await call("/api/ingest/osmand", { method: "POST", json: { device_id: deviceId, location } });
    expect(res.status).toBe(200);
    outcomes.push(...((await res.json()) as { outcomes: string[] }).outcomes);
  }
  return outcomes;
}

/** The object writes what it holds to D1, as it does before any reader of D1 (worker/workspace-object.ts settleWorkspace). */
const flush = (workspaceId: string) => roomOf(workspaceId).settle();

/** What D1 holds for the vehicle once flushed, ids aside (a re-fold keeps the ids the first fold gave). */
async function written(workspaceId: string, vehicleId: string) {
  const events = await db()
    .select()
    .from(vehicleEvents)
    .where(eq(vehicleEvents.vehicleId, vehicleId))
    .orderBy(vehicleEvents.startTime);
  // An event a re-fold dropped: soft-deleted with no length (sent to clients as del, skipped by reports).
  const dropped = (e: (typeof events)[number]) => e.deleted && e.endTime === e.startTime;
  const startOf = new Map(events.map((e) => [e.id, `${e.type}@${e.startTime}`]));
  const shown = events.filter((e) => !dropped(e));
  const eventRows = await db().select().from(eventRollups).where(eq(eventRollups.vehicleId, vehicleId));
  const alertRows = await db().select().from(alerts).where(eq(alerts.workspaceId, workspaceId)).orderBy(alerts.at);
  const outbox = await db().select().from(alertOutbox).where(eq(alertOutbox.workspaceId, workspaceId));
  const withdrawn = alertRows.filter((x) => x.deleted).map((x) => x.id);
  return {
    dropped: events.filter(dropped).length,
    withdrawn: withdrawn.length,
    /** alerts inserted (each queues its delivery once), besides those a late report withdrew */
    delivered: outbox.filter((o) => !withdrawn.includes(o.alertId)).length,
    seen: {
      events: shown.map(({ type, startTime, endTime, distance, averageSpeed, latitude, longitude, deleted }) => ({
        ...{ type, startTime, endTime, distance, averageSpeed, latitude, longitude, deleted },
      })),
      eventRollups: eventRows
        .map(({ eventId, distanceMetres, maxSpeed, idlingSeconds }) => ({
          event: startOf.get(eventId),
          ...{ distanceMetres, maxSpeed, idlingSeconds },
        }))
        .sort((a, b) => String(a.event).localeCompare(String(b.event))),
      days: (await db().select().from(vehicleDayRollups).where(eq(vehicleDayRollups.vehicleId, vehicleId))).map(
        ({ vehicleId: _v, workspaceId: _w, ...figures }) => figures,
      ),
      alerts: alertRows
        .filter((x) => !x.deleted)
        .map(({ type, at, endAt, peak, latitude, longitude }) => ({ type, at, endAt, peak, latitude, longitude })),
      odometer: (await db().select().from(telemetry).where(eq(telemetry.vehicleId, vehicleId)).get())?.odometer,
      engineSeconds: (
        await db()
          .select()
          .from(vehicles)
          .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId)))
          .get()
      )?.engineSeconds,
    },
  };
}

describe("late reports through the ingestion endpoint", () => {
  it("a reordered track gives the events, odometer, rollups and alerts of the ordered one, no trip twice, no alert delivered twice", async () => {
    const center = track[Math.floor(track.length * 0.4)]!;
    const inOrder = await workspaceWatching(center);
    const reordered = await workspaceWatching(center);

    expect(new Set(await send(inOrder.beacon.id, track, 2))).toEqual(new Set(["stored"]));
    const random = seededRandom(7);
    const arrival = track
      .map((r) => ({ r, at: r.time + random.next() * (REORDER_WINDOW_MS - 10_000) }))
      .sort((a, b) => a.at - b.at)
      .map((x) => x.r);
    const outcomes = await send(reordered.beacon.id, arrival, 2);
    // A late report still answers "late" (stored as history), now folded in order too.
    expect(outcomes.filter((o) => o === "late").length).toBeGreaterThan(10);

    await flush(inOrder.workspaceId);
    await flush(reordered.workspaceId);
    const a = await written(inOrder.workspaceId, inOrder.beacon.vehicleId);
    const b = await written(reordered.workspaceId, reordered.beacon.vehicleId);
    expect(a.seen.events.map((e) => e.type)).toEqual(["STOP", "TRANSIT", "STOP", "TRANSIT", "STOP"]);
    expect(a.seen.alerts.length).toBeGreaterThan(2);
    expect(b.seen).toEqual(a.seen);
    // No trip twice: one row per event start, whatever the re-folds dropped.
    const starts = b.seen.events.map((e) => `${e.type}@${e.startTime}`);
    expect(new Set(starts).size).toBe(starts.length);
    expect(b.delivered).toBe(a.delivered);
    expect(a.delivered).toBe(a.seen.alerts.length);
  }, 60_000);

  it("a late report that fills a silence withdraws the stop and trip the silence made: soft-deleted with no length, gone from the reports", async () => {
    const t0 = Date.now() - 3 * 3_600_000;
    const at = (time: number, latitude: number): Report => ({
      ...{ deviceId: "", time, latitude, longitude: -87.63, speed: 15, heading: 0, altitude: null },
      ...{ accuracy: 5, battery: null, ignition: true, fuel: null, odometer: null },
    });
    const drive = Array.from({ length: 12 }, (_, i) => at(t0 + i * 10_000, 41.88 + i * 0.00135));
    const last = drive.at(-1)!;
    // 3,640 s without a report is a stop (over GAP_MS); the report 40 s before the next fills it.
    const filler = at(last.time + 3_600_000, last.latitude + 0.004);
    const after = at(last.time + 3_640_000, last.latitude + 0.0085);
    const inOrder = await workspaceWatching(drive[0]!);
    const reordered = await workspaceWatching(drive[0]!);
    await send(inOrder.beacon.id, [...drive, filler, after], 1);
    await send(reordered.beacon.id, [...drive, after], 1);
    await flush(reordered.workspaceId);
    expect(await send(reordered.beacon.id, [filler], 1)).toEqual(["late"]);
    await flush(inOrder.workspaceId);
    await flush(reordered.workspaceId);

    const a = await written(inOrder.workspaceId, inOrder.beacon.vehicleId);
    const b = await written(reordered.workspaceId, reordered.beacon.vehicleId);
    expect(b.dropped).toBe(2);
    expect(a.seen.events.map((e) => e.type)).toEqual(["TRANSIT"]);
    expect(b.seen).toEqual(a.seen);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const range = `from=${day(t0 - 86_400_000)}&to=${day(after.time + 86_400_000)}`;
    for (const name of ["trips", "stops"]) {
      const report = async (token: string) => {
        const res = await call(`/api/reports/${name}?${range}`, { token });
        expect(res.status).toBe(200);
        const { rows } = (await res.json()) as { rows: { vehicleId: string; vehicleName: string }[] };
        return rows.map(({ vehicleId: _id, vehicleName: _name, ...row }) => row);
      };
      expect(await report(reordered.token)).toEqual(await report(inOrder.token));
    }
  }, 30_000);
});

describe("open pages hear of a late report", () => {
  afterEach(closeSockets);

  it("pokes them when a late report is folded in order, though it answers late", async () => {
    const { workspaceId, token, beacon } = await workspaceWithBeacon();
    const page = await connect(workspaceId, token);
    const pokes = () => page.messages.filter((m) => m === POKE_MESSAGE).length;
    const now = Date.now();
    const sent = await ingestRequests([[report(beacon.id, now - 30_000)], [report(beacon.id, now - 10_000)]]);
    expect(sent.map((a) => a.ok && a.outcomes)).toEqual([["stored"], ["stored"]]);
    await expect.poll(pokes).toBeGreaterThan(0);
    // Past the poke's pace, so a poke of those two has gone out and none is still waiting.
    await new Promise((resolve) => setTimeout(resolve, 2 * POKE_INTERVAL_MS));
    await roundTrip(page);
    const before = pokes();

    const [late] = await ingestRequests([[report(beacon.id, now - 20_000, { speed: 12 })]]);
    expect(late!.ok && late!.outcomes).toEqual(["late"]);
    await expect.poll(pokes).toBeGreaterThan(before);
  });
});
