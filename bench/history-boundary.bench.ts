// The history API over a 10-hour day that crosses the hot/cold boundary (issue 19, ADR 0023): a
// vehicle's day from five hours before yesterday's start (UTC) to five after, one report every 4 s
// (9,000 positions). Its first hour is in D1's old `positions` table (written before positions
// moved), the next hours are reported through ingestion and, a minute later, packed by the
// workspace object's alarm; the part before midnight is compacted to R2, the part after stays
// packed, and the last half hour, reported just before measuring, is still raw. The same day,
// all in D1 (the old way), is the yardstick; both answers must be the same.
import { d1Query, newWorkspace, orderBeacons, sleep } from "./fleet";
import { baseUrl, load, percentile, report } from "./lib";

const REPORTS = 9000;
const EVERY_MS = 4000;
const PER_REQUEST = 200;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const { token, workspaceId } = await newWorkspace("History Boundary Bench");
const [tiered, legacy] = await orderBeacons(token, workspaceId, 2);
const t0 = Math.floor(Date.now() / DAY) * DAY - DAY - 5 * HOUR;

/** The i-th report of the day: a winding road with a 20-minute stop in the middle. */
function fix(i: number) {
  const a = i < 4000 ? i : i < 4300 ? 4000 : i - 300;
  return {
    t: t0 + i * EVERY_MS,
    lat: Number((43.6 + (a % 80) * 0.0002 - (a % 160 >= 80 ? (a % 80) * 0.0004 : 0)).toFixed(6)),
    lng: Number((-79.4 + a * 0.00005).toFixed(6)),
    speed: i >= 4000 && i < 4300 ? 0 : 15,
  };
}
const day = Array.from({ length: REPORTS }, (_, i) => fix(i));
const rowsOf = (beacon: { id: string; vehicleId: string }, part: typeof day) =>
  part
    .map(
      (p) =>
        `('${beacon.id}', ${p.t}, '${workspaceId}', '${beacon.vehicleId}', ${p.lat}, ${p.lng}, ${p.speed}, 50, ${p.t})`,
    )
    .join(",");
const intoD1 = (beacon: { id: string; vehicleId: string }, part: typeof day) => {
  for (let i = 0; i < part.length; i += 400) {
    d1Query(
      `INSERT INTO positions (beacon_id, recorded_at, workspace_id, vehicle_id, latitude, longitude, speed, fuel, received_at) VALUES ${rowsOf(beacon, part.slice(i, i + 400))}`,
    );
  }
};

async function post(body: string) {
  const res = await fetch(`${baseUrl}/api/ingest/osmand`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  if (!res.ok) throw new Error(`ingest: ${res.status}`);
  await res.arrayBuffer();
}

async function ingest(part: typeof day) {
  for (let i = 0; i < part.length; i += PER_REQUEST) {
    const location = part.slice(i, i + PER_REQUEST).map((p) => ({
      timestamp: p.t,
      coords: { latitude: p.lat, longitude: p.lng, speed: p.speed },
      extras: { fuel: 50 },
    }));
    const body = JSON.stringify({ device_id: tiered!.id, location });
    await post(body).catch(() => post(body)); // once more on a dropped keep-alive socket: a resend is a duplicate
  }
}

const firstHour = day.filter((p) => p.t < t0 + HOUR);
const lastHalfHour = day.filter((p) => p.t >= t0 + 9.5 * HOUR);
intoD1(tiered!, firstHour);
intoD1(legacy!, day);
await ingest(day.filter((p) => p.t >= t0 + HOUR && p.t < t0 + 9.5 * HOUR));
// The object's alarm packs what is a minute old and moves the day before yesterday to R2.
await sleep(75_000);
await ingest(lastHalfHour);

const range = `?from=${t0}&to=${t0 + REPORTS * EVERY_MS}`;
const headers = { Authorization: `Bearer ${token}` };
const answers = new Map<string, string>();
const getter = (beacon: { vehicleId: string }) => async () => {
  const res = await fetch(`${baseUrl}/api/vehicles/${beacon.vehicleId}/history${range}`, { headers });
  const body = await res.text();
  if (!res.ok) throw new Error(`history: ${res.status}`);
  answers.set(beacon.vehicleId, JSON.stringify((JSON.parse(body) as { points: unknown[] }).points));
};
const noop = async () => void (await (await fetch(`${baseUrl}/api/health`)).arrayBuffer());
await load(3, 1, getter(tiered!)); // warm up
await load(3, 1, getter(legacy!));
// Interleaved, so both see the same load of this shared machine.
const across = { latencies: [] as number[] };
const d1Only = { latencies: [] as number[] };
const baseline = { latencies: [] as number[] };
for (let i = 0; i < 30; i++) {
  for (const [into, task] of [
    [across, getter(tiered!)],
    [d1Only, getter(legacy!)],
    [baseline, noop],
  ] as const)
    into.latencies.push(...(await load(1, 1, task)).latencies);
}
for (const l of [across, d1Only, baseline]) l.latencies.sort((a, b) => a - b);
const same = answers.get(tiered!.vehicleId) === answers.get(legacy!.vehicleId);
if (!same) throw new Error("the day across the tiers is not answered as the same day in D1");
const p50 = percentile(across.latencies, 50);

report(
  "History across the hot/cold boundary: a 10-hour day of one vehicle",
  [
    {
      metric: "GET history of 9,000 positions across D1, R2, packed and raw, p50",
      value: p50,
      unit: "ms",
      target: "≤ 100",
    },
    { metric: "same, p95", value: percentile(across.latencies, 95), unit: "ms" },
    { metric: "the same day all in D1 (before), p50", value: percentile(d1Only.latencies, 50), unit: "ms" },
    {
      metric: "across the tiers ÷ all in D1, p50",
      value: Math.round((p50 / percentile(d1Only.latencies, 50)) * 100) / 100,
      unit: "×",
    },
    {
      metric: "across the tiers ÷ the no-op GET /api/health, p50",
      value: Math.round((p50 / percentile(baseline.latencies, 50)) * 10) / 10,
      unit: "×",
    },
    { metric: "answers identical", value: same ? 1 : 0, unit: "(1 = yes)" },
  ],
  "9,000 positions at 4 s from 5 h before yesterday's UTC start: the first hour in D1's old table, the rest ingested in JSON batches of 200; 75 s later (the alarm packed them and moved the day before yesterday to R2) the last half hour is ingested (raw). One request at a time, 30 of each interleaved with 30 no-op requests.",
);
