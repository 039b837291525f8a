// The crash check (issue 19): no acknowledged report is lost when the Worker dies under load.
// 20 beacons report as fast as they are answered; a few seconds in, the local Worker (wrangler dev
// and its workerd) is killed with SIGKILL, then started again on the same local state, as
// `npm start` would. Every report that was answered 200 before the kill must be in the vehicle's
// history after the restart, D1's telemetry must catch up with it (the restarted object completes
// the flush the kill interrupted), and ingestion must work again. Bounded (about 30 s), loopback only.
//   node scripts/crash-check.mjs            (port 8810, or CRASH_PORT)
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { migrateFreshDatabase, offlineEnv, startWorker } from "./worker-process.mjs";

const port = Number(process.env.CRASH_PORT ?? 8810);
const persistTo = `.wrangler/crash-${port}`;
const BEACONS = 20;
const KILL_AFTER_MS = 4_000;
const vars = { ENVIRONMENT: "test", APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000" };

async function api(base, path, { token, body } = {}) {
  const res = await fetch(`${base}/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * What is stored, read back through the history API (positions live in the workspace's object,
 * docs/decisions/0023): each beacon's range in windows of 900 s, fewer points than the API's
 * downsampling threshold, so every stored report is answered.
 */
async function storedPairs(base, token, beacons, from, to) {
  const stored = new Set();
  for (const beacon of beacons) {
    for (let t = from; t <= to; t += 900_000) {
      const { points } = await api(
        base,
        `/vehicles/${beacon.vehicleId}/history?from=${t}&to=${Math.min(t + 899_999, to)}`,
        { token },
      );
      for (const p of points) stored.add(`${beacon.id}\n${p.t}`);
    }
  }
  return stored;
}

/**
 * Vehicles whose telemetry in D1 is older than their last acknowledged report: what the object's
 * flush (interrupted by the kill) has not written yet. Read from D1 directly, as nothing else
 * would make the restarted object flush (a pull or a REST reader would settle it first).
 */
function unflushed(workspaceId, lastAcknowledged) {
  const out = execFileSync(
    "wrangler",
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persistTo,
      "--json",
      "--command",
      `SELECT vehicle_id, recorded_at FROM telemetry WHERE workspace_id = '${workspaceId}'`,
    ],
    { encoding: "utf8", env: offlineEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  const inD1 = new Map(JSON.parse(out)[0].results.map((r) => [r.vehicle_id, r.recorded_at]));
  return [...lastAcknowledged].filter(([vehicleId, t]) => !(inD1.get(vehicleId) >= t));
}

/** Each vehicle's newest acknowledged report time. */
function newestByVehicle(acknowledged, beacons) {
  const vehicleOf = new Map(beacons.map((b) => [b.id, b.vehicleId]));
  const newest = new Map();
  for (const pair of acknowledged) {
    const [beaconId, time] = pair.split("\n");
    const vehicleId = vehicleOf.get(beaconId);
    newest.set(vehicleId, Math.max(newest.get(vehicleId) ?? 0, Number(time)));
  }
  return newest;
}

/** Each beacon reports one position after another until `stop()`; resolves with what was acknowledged. */
function reportUntilStopped(base, beacons) {
  let stopped = false;
  const acknowledged = [];
  const start = Date.now() - 3_600_000;
  const runs = beacons.map(async (beacon, b) => {
    for (let n = 0; !stopped; n++) {
      const time = start + n * 1000;
      const q = new URLSearchParams({
        id: beacon.id,
        lat: String(40 + b * 0.01 + n * 1e-4),
        lon: "-100",
        timestamp: String(time),
        speed: "20",
      });
      try {
        const res = await fetch(`${base}/api/ingest/osmand?${q}`);
        if (res.ok) acknowledged.push(`${beacon.id}\n${time}`);
        else await res.arrayBuffer();
      } catch {
        await new Promise((r) => setTimeout(r, 50)); // the Worker is gone: nothing was acknowledged
      }
    }
  });
  return { stop: async () => ((stopped = true), await Promise.all(runs), acknowledged) };
}

rmSync(persistTo, { recursive: true, force: true });
// A fresh D1: every migration in one statement batch, not a local D1 started per file (ADR 0067).
await migrateFreshDatabase(persistTo, { stdio: "ignore" });
let worker = await startWorker({ port, persistTo, quiet: true, vars });
let failed = false;
try {
  const { token } = await api(worker.url, "/signup", {
    body: { email: `crash-${Date.now()}@example.com`, password: "correct horse battery" },
  });
  const { id: workspaceId } = await api(worker.url, "/workspaces", { token, body: { name: "Crash check" } });
  const session = await api(worker.url, "/workspaces/session", { token, body: { workspaceId } });
  const beacons = await api(worker.url, "/beacons/order", {
    token: session.token,
    body: { workspaceId, count: BEACONS },
  });

  const load = reportUntilStopped(worker.url, beacons);
  await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
  process.kill(-worker.child.pid, "SIGKILL");
  await worker.stop();
  const acknowledged = await load.stop();

  worker = await startWorker({ port, persistTo, quiet: true, vars });
  const after = reportUntilStopped(worker.url, beacons.slice(0, 1));
  await new Promise((r) => setTimeout(r, 500));
  const resumed = await after.stop();
  // The restarted object's alarm completes the interrupted flush on its own, at the pace of a
  // workspace with no page open (FLUSH_IDLE_MS, 10 s, in party/fleet-room.ts).
  let behind = [];
  for (let tries = 0; tries < 20; tries++) {
    behind = unflushed(workspaceId, newestByVehicle(acknowledged, beacons));
    if (!behind.length) break;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const times = acknowledged.map((pair) => Number(pair.split("\n")[1]));
  const stored = await storedPairs(worker.url, session.token, beacons, Math.min(...times), Math.max(...times));
  const lost = acknowledged.filter((pair) => !stored.has(pair));
  console.log(
    `${BEACONS} beacons; killed after ${KILL_AFTER_MS} ms with ${acknowledged.length} reports acknowledged; after the restart ${lost.length} of them are missing from the history, ${behind.length} vehicles' telemetry in D1 is behind them, and ${resumed.length} new reports were acknowledged.`,
  );
  failed = lost.length > 0 || behind.length > 0 || acknowledged.length === 0 || resumed.length === 0;
} finally {
  await worker.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
if (failed) {
  console.error("crash check FAILED");
  process.exit(1);
}
console.log("crash check passed: no acknowledged report lost");
