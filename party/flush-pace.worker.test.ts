import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { report, workspaceWithBeacon } from "../worker/test/factories";
import { ingestRequests, roomOf, runObjectTasks } from "../worker/test/ingest";
import { FIRST_LOOK_DELAY_MS } from "./beacon-watch/beacon-watch-task";
import { closeSockets, connect } from "../worker/test/sockets";
import { FLUSH_IDLE_MS, FLUSH_MS } from "./room/flush";
import { BIG_FLEET_POKE_INTERVAL_MS, POKE_INTERVAL_MS, pokeIntervalMs } from "./room/poke-pacer";
import { alarmOnDateClock } from "./alarm/room-alarm";

// The flush's pace (issue 35): D1 hears from a workspace's object once a second while a page of it
// is open, and every FLUSH_IDLE_MS while none is, so a fleet nobody watches costs D1 a few
// statements every ten seconds instead of every second.
afterEach(closeSockets);

const alarmOf = (workspaceId: string) =>
  runInDurableObject(roomOf(workspaceId), (_room, state) => alarmOnDateClock(state.storage));

/**
 * A report once the object is in its steady state: its first report flushed, the beacon watch's
 * first look taken (party/beacon-watch/, due FIRST_LOOK_DELAY_MS after it) and the day's first
 * positions maintenance (due a second after it) run, so the next alarm is the flush's.
 */
async function reportOnceSettled(workspaceId: string, beaconId: string) {
  await ingestRequests([[report(beaconId, Date.now() - 2_000)]], { flushMs: FLUSH_MS });
  await runObjectTasks(workspaceId, Date.now() + FIRST_LOOK_DELAY_MS);
  await runDurableObjectAlarm(roomOf(workspaceId));
  while (((await alarmOf(workspaceId)) ?? Infinity) < Date.now() + 5_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    await runDurableObjectAlarm(roomOf(workspaceId));
  }
  const before = Date.now();
  await ingestRequests([[report(beaconId, before - 1_000)]], { flushMs: FLUSH_MS });
  return { before, alarm: (await alarmOf(workspaceId))! };
}

describe("the flush's pace", () => {
  it("waits FLUSH_IDLE_MS with no page open", async () => {
    const { workspaceId, beacon } = await workspaceWithBeacon();
    const { before, alarm } = await reportOnceSettled(workspaceId, beacon.id);
    expect(alarm).toBeGreaterThanOrEqual(before + FLUSH_IDLE_MS);
  });

  it("flushes within FLUSH_MS while a page is open", async () => {
    const { workspaceId, token, beacon } = await workspaceWithBeacon();
    await connect(workspaceId, token);
    const { before, alarm } = await reportOnceSettled(workspaceId, beacon.id);
    expect(alarm).toBeGreaterThanOrEqual(before + FLUSH_MS);
    expect(alarm).toBeLessThan(before + FLUSH_IDLE_MS);
  });
});

describe("the poke's pace", () => {
  it("coalesces a quiet fleet's pokes over a quarter second and a busy fleet's over up to 2 s", () => {
    expect(pokeIntervalMs(0.2)).toBe(POKE_INTERVAL_MS);
    expect(pokeIntervalMs(20)).toBe(POKE_INTERVAL_MS); // 100 vehicles at 5 s
    expect(pokeIntervalMs(100)).toBe(1_000);
    expect(pokeIntervalMs(200)).toBe(BIG_FLEET_POKE_INTERVAL_MS); // 1,000 vehicles at 5 s
    expect(pokeIntervalMs(20_000)).toBe(BIG_FLEET_POKE_INTERVAL_MS);
  });
});
