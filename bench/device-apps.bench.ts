// Device apps (issue 30): the same positions through OsmAnd (query string), OwnTracks (JSON, device
// id in X-Limit-D) and Overland (JSON batch of one), 20 concurrent devices each; reports per second
// of each protocol against OsmAnd's in the same run (OsmAnd measured before and after, averaged).
import { newWorkspace, orderBeacons, osmandUrl, spot } from "./fleet";
import { baseUrl, load, percentile, serverCpuByProcess, report as write } from "./lib";

const DEVICES = 20;
const REPORTS = 1_500;
const ROUNDS = 5;
const start = Date.now() - 86_400_000; // device time: yesterday, so no report is in the future

type Send = (deviceId: string, n: number, device: number) => Promise<Response>;

const position = (device: number, n: number) => ({ ...spot(device, n), time: start + n * 1000, speedMs: 10 });

const protocols: Record<string, Send> = {
  osmand: (id, n, d) => {
    const p = position(d, n);
    return fetch(osmandUrl({ id, lat: p.lat, lon: p.lon, timestamp: p.time, speed: p.speedMs / 0.514444 }));
  },
  owntracks: (id, n, d) => {
    const p = position(d, n);
    const body = {
      _type: "location",
      lat: p.lat,
      lon: p.lon,
      tst: p.time / 1000,
      vel: p.speedMs * 3.6,
      acc: 5,
      batt: 80,
      tid: "bn",
    };
    return fetch(`${baseUrl}/api/ingest/owntracks`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Limit-D": id },
      body: JSON.stringify(body),
    });
  },
  osmandJson: (id, n, d) => {
    const p = position(d, n);
    const body = {
      device_id: id,
      location: { timestamp: p.time, coords: { latitude: p.lat, longitude: p.lon, speed: p.speedMs, accuracy: 5 } },
    };
    return fetch(`${baseUrl}/api/ingest/osmand`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  },
  overland: (id, n, d) => {
    const p = position(d, n);
    const feature = {
      type: "Feature",
      geometry: { type: "Point", coordinates: [p.lon, p.lat] },
      properties: {
        timestamp: new Date(p.time).toISOString(),
        speed: p.speedMs,
        horizontal_accuracy: 5,
        battery_level: 0.8,
        device_id: id,
      },
    };
    return fetch(`${baseUrl}/api/ingest/overland`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ locations: [feature] }),
    });
  },
};

/** One workspace of DEVICES beacons per protocol, made and warmed up before anything is timed. */
const fleets: Record<string, { id: string }[]> = {};
const sentBy: Record<string, number[]> = {};
const totals: Record<
  string,
  { seconds: number; reports: number; failed: number; latencies: number[]; workerCpuMs: number }
> = {};
for (const name of Object.keys(protocols)) {
  const ws = await newWorkspace(`Bench ${name}`);
  fleets[name] = await orderBeacons(ws.token, ws.workspaceId, DEVICES);
  sentBy[name] = fleets[name]!.map(() => 0);
  totals[name] = { seconds: 0, reports: 0, failed: 0, latencies: [], workerCpuMs: 0 };
}

async function run(name: string, reports: number, timed: boolean) {
  const beacons = fleets[name]!;
  let failed = 0;
  const cpu = serverCpuByProcess().worker;
  const result = await load(reports, DEVICES, async (i) => {
    const d = i % DEVICES;
    const res = await protocols[name]!(beacons[d]!.id, sentBy[name]![d]!++, d);
    await res.arrayBuffer();
    if (!res.ok) failed++;
  });
  if (!timed) return;
  const t = totals[name]!;
  t.seconds += result.seconds;
  t.reports += reports;
  t.failed += failed;
  t.latencies.push(...result.latencies);
  t.workerCpuMs += serverCpuByProcess().worker - cpu;
}

for (const name of Object.keys(protocols)) await run(name, 3 * DEVICES, false); // first contacts, warm-up
// Rounds, each protocol in turn and the order rotated each round, so the machine's drift (other
// work on its two cores) falls on every protocol alike.
const names = Object.keys(protocols);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) await run(names[(round + k) % names.length]!, REPORTS / ROUNDS, true);
}
const rate = (name: string) => totals[name]!.reports / totals[name]!.seconds;
const p50 = (name: string) =>
  percentile(
    totals[name]!.latencies.sort((a, b) => a - b),
    50,
  );
const osmand = rate("osmand");
/** The Worker's CPU per report (its workerd, without wrangler dev's proxy): what a protocol costs the server. */
const cpuPerReport = (name: string) => totals[name]!.workerCpuMs / totals[name]!.reports;
const owntracks = { perSecond: rate("owntracks") };
const overland = { perSecond: rate("overland") };

write(
  "Device apps: OwnTracks and Overland ingestion against OsmAnd, same positions",
  [
    { metric: "OsmAnd reports/s (GET, query string; 20 devices)", value: Math.round(osmand), unit: "reports/s" },
    {
      metric: "OsmAnd JSON variant (POST) / OsmAnd",
      value: Number((rate("osmandJson") / osmand).toFixed(2)),
      unit: "x",
    },
    { metric: "OwnTracks reports/s", value: Math.round(owntracks.perSecond), unit: "reports/s" },
    {
      metric: "OwnTracks / OsmAnd",
      value: Number((owntracks.perSecond / osmand).toFixed(2)),
      unit: "x",
      target: ">= 0.95",
    },
    { metric: "Overland reports/s (one location a request)", value: Math.round(overland.perSecond), unit: "reports/s" },
    {
      metric: "Overland / OsmAnd",
      value: Number((overland.perSecond / osmand).toFixed(2)),
      unit: "x",
      target: ">= 0.95",
    },
    { metric: "Worker CPU per report, OsmAnd", value: Number(cpuPerReport("osmand").toFixed(3)), unit: "ms" },
    {
      metric: "Worker CPU per report, OwnTracks / OsmAnd",
      value: Number((cpuPerReport("owntracks") / cpuPerReport("osmand")).toFixed(2)),
      unit: "x",
    },
    {
      metric: "Worker CPU per report, Overland / OsmAnd",
      value: Number((cpuPerReport("overland") / cpuPerReport("osmand")).toFixed(2)),
      unit: "x",
    },
    {
      metric: "Worker CPU per report, OsmAnd JSON / OsmAnd",
      value: Number((cpuPerReport("osmandJson") / cpuPerReport("osmand")).toFixed(2)),
      unit: "x",
    },
    { metric: "OsmAnd p50 latency", value: Number(p50("osmand").toFixed(1)), unit: "ms" },
    { metric: "OwnTracks p50 latency", value: Number(p50("owntracks").toFixed(1)), unit: "ms" },
    { metric: "Overland p50 latency", value: Number(p50("overland").toFixed(1)), unit: "ms" },
    {
      metric: "failed requests (all protocols)",
      value: Object.values(totals).reduce((n, t) => n + t.failed, 0),
      unit: "requests",
      target: "0",
    },
  ],
  `${REPORTS} reports per protocol from ${DEVICES} concurrent devices, one request per report, in ${ROUNDS} interleaved rounds; every protocol's parser feeds the same ingestion path.`,
);
