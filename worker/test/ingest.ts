import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { IngestAnswer, LiveOptions } from "../../party/live-fleet/live-fleet";
import type { WorkspaceRoom } from "../workspace-room";
import { database } from "../../db/client";
import { beacons } from "../../db/schema";
import { ReportError, type Report } from "../../domain/devices/osmand";
import { withRoomParts } from "./room-parts";

/** The workspace object of a workspace, for tests that call into it (runInDurableObject). */
export const roomOf = (workspaceId: string) => env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId));

/**
 * Tests' way to ingest without HTTP: one request per call into the device's workspace object,
 * in-process (so a test may pass its own modules, tables and clock), flushed to D1 before it
 * answers unless `flushMs` says otherwise. Rejects with ReportError for an unknown device id.
 */
export async function ingest(reports: Report[], options: LiveOptions & { flushMs?: number } = {}) {
  const [answer] = await ingestRequests([reports], options);
  if (!answer!.ok) throw new ReportError(answer!.unknown ? "Unknown device id" : "throttled");
  return answer!;
}

/** Several requests of one workspace's devices in one call into its object. */
export async function ingestRequests(
  requests: Report[][],
  options: LiveOptions & { flushMs?: number } = {},
): Promise<IngestAnswer[]> {
  const beacon = await database(env.DB).select().from(beacons).where(eq(beacons.id, requests[0]![0]!.deviceId)).get();
  if (!beacon) return requests.map(() => ({ ok: false, unknown: true }));
  return runInDurableObject(roomOf(beacon.workspaceId), (room: WorkspaceRoom) =>
    room.ingest(requests, { flushMs: 0, ...options }),
  );
}

/** A vehicle's live state as its workspace's object stored it (its modules' states included). */
export async function vehicleState(workspaceId: string, vehicleId: string) {
  return withRoomParts(workspaceId, (parts) => parts.fleet.vehicle(vehicleId));
}

/** Runs the workspace object's due alarm tasks as its alarm would at `now` (a test's clock moved on; docs/decisions/0059). */
export async function runObjectTasks(workspaceId: string, now: number) {
  await runInDurableObject(roomOf(workspaceId), (room: WorkspaceRoom) => room.runAlarmTasks(now));
}

/** When the workspace object's alarm is set for (null: none). */
export async function objectAlarm(workspaceId: string) {
  return runInDurableObject(roomOf(workspaceId), (_room, state) => state.storage.getAlarm());
}
