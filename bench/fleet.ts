// Fleets for the benchmarks, built through the public API the way a user and real beacons would:
// an account, a workspace, beacon orders (one vehicle each) and OsmAnd reports. Pulls speak
// Replicache 15's wire format (shared/sync/sync-protocol.ts). Counting stored rows reads the bench's
// local D1 directly with `wrangler d1 execute`, which works while wrangler dev holds it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pullRequest } from "../shared/sync/sync-requests";
import { baseUrl, load } from "./lib";

export interface Fleet {
  token: string;
  workspaceId: string;
  beacons: { id: string; vehicleId: string }[];
}

export async function api<T>(path: string, init: { token?: string; body?: unknown; method?: string } = {}): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** A new account with a new workspace selected in its session. */
export async function newWorkspace(name = "Bench Fleet"): Promise<{ token: string; workspaceId: string }> {
  const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const { token } = await api<{ token: string }>("/signup", { body: { email, password: "correct horse battery" } });
  const { id } = await api<{ id: string }>("/workspaces", { token, body: { name } });
  const session = await api<{ token: string }>("/workspaces/session", { token, body: { workspaceId: id } });
  return { token: session.token, workspaceId: id };
}

/** A single-use realtime ticket for the session's workspace room (docs/decisions/0010). */
export async function realtimeTicket(token: string): Promise<string> {
  return (await api<{ ticket: string }>("/realtime/ticket", { token, method: "POST" })).ticket;
}

/** Orders `count` beacons (100 per order, the API's bound), each with its own new vehicle. */
export async function orderBeacons(token: string, workspaceId: string, count: number) {
  const out: Fleet["beacons"] = [];
  for (let left = count; left > 0; left -= 100) {
    const ordered = await api<{ id: string; vehicleId: string }[]>("/beacons/order", {
      token,
      body: { workspaceId, count: Math.min(100, left) },
    });
    out.push(...ordered.map((b) => ({ id: b.id, vehicleId: b.vehicleId })));
  }
  return out;
}

/** A position somewhere in the continental US, spread by index so fleets are not one dot. */
export function spot(i: number, step = 0) {
  return { lat: 30 + ((i * 7919) % 1500) / 100 + step * 0.001, lon: -120 + ((i * 104729) % 4000) / 100 + step * 0.001 };
}

export interface OsmandReport {
  id: string;
  lat: number;
  lon: number;
  /** ms since epoch */
  timestamp: number;
  /** knots, as the protocol sends it */
  speed?: number;
  ignition?: boolean;
  /** percent of the tank */
  fuel?: number;
}

export function osmandUrl(r: OsmandReport) {
  const q = new URLSearchParams({
    id: r.id,
    lat: r.lat.toFixed(6),
    lon: r.lon.toFixed(6),
    timestamp: String(r.timestamp),
  });
  if (r.speed !== undefined) q.set("speed", r.speed.toFixed(3));
  if (r.ignition !== undefined) q.set("ignition", String(r.ignition));
  if (r.fuel !== undefined) q.set("fuel", r.fuel.toFixed(1));
  return `${baseUrl}/api/ingest/osmand?${q}`;
}

/** Sends one OsmAnd report; resolves with the outcome ("stored", "duplicate", "late"). */
export async function report(r: OsmandReport): Promise<string> {
  const res = await fetch(osmandUrl(r));
  const text = await res.text();
  if (!res.ok) throw new Error(`ingest: ${res.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { outcomes: string[] }).outcomes[0] ?? "";
}

/** One report per beacon, `concurrency` at a time, so every vehicle has telemetry. */
export async function reportAll(beacons: Fleet["beacons"], concurrency = 20, step = 0, timestamp = Date.now()) {
  await load(beacons.length, concurrency, async (i) => {
    await report({
      id: beacons[i]!.id,
      ...spot(i, step),
      timestamp: timestamp + step * 1000,
      speed: 20,
      ignition: true,
    });
  });
}

/**
 * A workspace of `size` vehicles, each with telemetry, built once per `npm run bench` run and
 * shared by the benches that need the same large fleet (cached next to their JSON output).
 * Vehicles and beacons come from real beacon orders. Their first telemetry is written straight
 * into D1 in one statement, as ingestion would leave it (stamped with a new workspace version):
 * 10,000 reports through the API take minutes on this shared machine, and ingestion has its own
 * bench. Everything measured afterwards (pulls, pokes, moving vehicles) goes through HTTP.
 */
export async function fleetOf(size: number): Promise<Fleet> {
  const cache = process.env.BENCH_OUT ? `${dirname(process.env.BENCH_OUT)}/fleet-${size}.json` : null;
  if (cache && existsSync(cache)) return JSON.parse(readFileSync(cache, "utf8")) as Fleet;
  const { token, workspaceId } = await newWorkspace(`Bench Fleet ${size}`);
  const beacons = await orderBeacons(token, workspaceId, size);
  seedTelemetry(workspaceId, Date.now() - 60_000);
  const fleet = { token, workspaceId, beacons };
  if (cache) writeFileSync(cache, JSON.stringify(fleet));
  return fleet;
}

/** Per vehicle of the workspace: telemetry (moving, spread over the US), an open trip, beacon ACTIVE. */
export function seedTelemetry(workspaceId: string, at: number) {
  const ws = `'${workspaceId.replace(/'/g, "''")}'`;
  const version = `(SELECT version FROM workspaces WHERE id = ${ws})`;
  d1Query(
    [
      `UPDATE workspaces SET version = version + 1 WHERE id = ${ws};`,
      `INSERT INTO telemetry (id, workspace_id, vehicle_id, status, status_timestamp, speed, odometer, fuel, latitude, longitude, heading, recorded_at, version)`,
      ` SELECT id, workspace_id, id, 'moving', ${at}, 10.3, 120000, 64, 30 + (abs(random()) % 1500) / 100.0, -120 + (abs(random()) % 4000) / 100.0, 90, ${at}, ${version}`,
      ` FROM vehicles WHERE workspace_id = ${ws};`,
      // The open trip a first moving report starts (domain/fold/motion.ts), so pulls carry events too.
      `INSERT INTO vehicle_events (id, workspace_id, vehicle_id, type, start_time, latitude, longitude, distance, version)`,
      ` SELECT t.id || '-seed', t.workspace_id, t.vehicle_id, 'TRANSIT', ${at}, t.latitude, t.longitude, 0, ${version}`,
      ` FROM telemetry t WHERE t.workspace_id = ${ws};`,
      `UPDATE beacons SET last_report_at = ${at} WHERE workspace_id = ${ws};`,
      `UPDATE vehicles SET beacon_status = 'ACTIVE', version = ${version} WHERE workspace_id = ${ws};`,
    ].join("\n"),
  );
}

export interface PullResult {
  ms: number;
  bytes: number;
  cookie: number;
  patch: { op: string; key?: string }[];
}

/** A Replicache 15 pull (pullVersion 1) of `clientGroupID` from `cookie`; timed to the last byte. */
export async function pull(token: string, clientGroupID: string, cookie: number | null): Promise<PullResult> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/sync/pull`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      "X-Replicache-RequestID": `bench-${clientGroupID}`,
    },
    body: JSON.stringify(pullRequest({ profileID: "bench", clientGroupID, cookie })),
  });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  const text = new TextDecoder().decode(body);
  if (!res.ok) throw new Error(`pull: ${res.status} ${text.slice(0, 200)}`);
  const json = JSON.parse(text) as { cookie: number; patch: PullResult["patch"]; error?: string };
  if (json.error) throw new Error(`pull: ${json.error}`);
  return { ms, bytes: body.byteLength, cookie: json.cookie, patch: json.patch };
}

/** Runs one SQL statement against the bench's local D1 (the database wrangler dev is serving). */
export function d1Query<T>(sql: string): T[] {
  const persistTo = process.env.BENCH_PERSIST;
  if (!persistTo) throw new Error("BENCH_PERSIST is not set (run through npm run bench)");
  const bin = new URL("../node_modules/.bin", import.meta.url).pathname;
  const out = execFileSync(
    `${bin}/wrangler`,
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql],
    {
      encoding: "utf8",
      // wrangler needs the project's Node 22, first on PATH.
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return (JSON.parse(out) as { results: T[] }[])[0]!.results;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
