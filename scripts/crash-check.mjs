// The crash check (issue 19): no acknowledged report is lost when the Worker dies under load.
// 20 beacons report as fast as they are answered; a few seconds in, the local Worker (wrangler dev
// and its workerd) is killed with SIGKILL, then started again on the same local state, as
// `npm start` would. Every report that was answered 200 before the kill must be in D1 after the
// restart (the workspace object's flush completed), and ingestion must work again. Bounded (about 30 s), loopback only.
//   node scripts/crash-check.mjs            (port 8810, or CRASH_PORT)
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { applyMigrations, offlineEnv, startWorker } from "./worker-process.mjs";

const port = Number(process.env.CRASH_PORT ?? 8810);
const persistTo = `.wrangler/crash-${port}`;
const BEACONS = 20;
const KILL_AFTER_MS = 4_000;
const vars = { ENVIRONMENT: "test", APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000" };

async function api(base, path, { token, body } = {}) {
  const res = await fetch(`${base}/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

function storedPairs(workspaceId) {
  const out = execFileSync(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", `SELECT beacon_id, recorded_at FROM positions WHERE workspace_id = '${workspaceId}'`],
    { encoding: "utf8", env: offlineEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Set(JSON.parse(out)[0].results.map((r) => `${r.beacon_id}\n${r.recorded_at}`));
}

/** Each beacon reports one position after another until `stop()`; resolves with what was acknowledged. */
function reportUntilStopped(base, beacons) {
  let stopped = false;
  const acknowledged = [];
  const start = Date.now() - 3_600_000;
  const runs = beacons.map(async (beacon, b) => {
    for (let n = 0; !stopped; n++) {
      const time = start + n * 1000;
      const q = new URLSearchParams({ id: beacon.id, lat: String(40 + b * 0.01 + n * 1e-4), lon: "-100", timestamp: String(time), speed: "20" });
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
await applyMigrations(persistTo, { stdio: "ignore" });
let worker = await startWorker({ port, persistTo, quiet: true, vars });
let failed = false;
try {
  const { token } = await api(worker.url, "/signup", { body: { email: `crash-${Date.now()}@example.com`, password: "correct horse battery" } });
  const { id: workspaceId } = await api(worker.url, "/workspaces", { token, body: { name: "Crash check" } });
  const session = await api(worker.url, "/workspaces/session", { token, body: { workspaceId } });
  const beacons = await api(worker.url, "/beacons/order", { token: session.token, body: { workspaceId, count: BEACONS } });

  const load = reportUntilStopped(worker.url, beacons);
  await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
  process.kill(-worker.child.pid, "SIGKILL");
  await worker.stop();
  const acknowledged = await load.stop();

  worker = await startWorker({ port, persistTo, quiet: true, vars });
  const after = reportUntilStopped(worker.url, beacons.slice(0, 1));
  await new Promise((r) => setTimeout(r, 500));
  const resumed = await after.stop();
  // Acknowledged means durable in the workspace's object; D1 gets it from the object's flush,
  // which the restart must complete on its own (its alarm, about a second): look for a few seconds.
  let lost = acknowledged;
  for (let tries = 0; tries < 8 && lost.length; tries++) {
    await new Promise((r) => setTimeout(r, 1_000));
    const stored = storedPairs(workspaceId);
    lost = acknowledged.filter((pair) => !stored.has(pair));
  }
  console.log(`${BEACONS} beacons; killed after ${KILL_AFTER_MS} ms with ${acknowledged.length} reports acknowledged; after the restart ${lost.length} of them are missing, and ${resumed.length} new reports were acknowledged.`);
  failed = lost.length > 0 || acknowledged.length === 0 || resumed.length === 0;
} finally {
  await worker.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
if (failed) {
  console.error("crash check FAILED");
  process.exit(1);
}
console.log("crash check passed: no acknowledged report lost");
