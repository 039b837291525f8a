// Live-share page (issue 30): what one open share costs the server per minute, and how far behind
// the vehicle the page is. The page polls GET /api/share/{token} every SHARE_POLL_MS: one request
// each, answered by the workspace's object from the link it keeps (re-read from D1 once a minute,
// party/room/share-views.ts) and the live position: about 1 D1 read a minute per open share, counted
// by worker/api/shares.worker.test.ts with the dev meter (docs/decisions/0035).
import { SHARE_POLL_MS } from "../shared/fleet/shares";
import { newWorkspace, orderBeacons, report, sleep } from "./fleet";
import { baseUrl, load, percentile, report as write } from "./lib";

const ws = await newWorkspace("Bench Share");
const [beacon] = await orderBeacons(ws.token, ws.workspaceId, 1);
const created = await fetch(`${baseUrl}/api/vehicles/${beacon!.vehicleId}/shares`, {
  method: "POST",
  headers: { Authorization: `Bearer ${ws.token}`, "Content-Type": "application/json" },
  body: JSON.stringify({ expiresInMinutes: 60 }),
});
const { url } = (await created.json()) as { url: string };
const readUrl = `${baseUrl}/api/share/${url.split("/").at(-1)}`;
await report({ id: beacon!.id, lat: 41.88, lon: -87.63, timestamp: Date.now() - 1000, speed: 10 });

const read = async () => {
  const res = await fetch(readUrl, { headers: { "CF-Connecting-IP": "10.99.0.1" } });
  const body = (await res.json()) as { position: { lat: number; at: number } | null };
  if (!res.ok) throw new Error(`share read: ${res.status}`);
  return body;
};

// The read's latency alone, one page at a time (as one open page polls) and 50 pages at once.
await load(50, 1, async () => void (await read()));
const alone = await load(300, 1, async () => void (await read()));
const fifty = await load(1_000, 50, async () => void (await read()));

// Staleness: the vehicle reports every 5 s (device time = now); a page polling every
// SHARE_POLL_MS sees each report at its next poll. 8 reports (40 s), each report's lag measured
// from its send to the first poll answering it.
const lags: number[] = [];
const REPORTS = 8;
let reported = { lat: 0, at: 0 };
let stopped = false;
const poller = (async () => {
  const seen = new Set<number>();
  while (lags.length < REPORTS && !stopped) {
    const body = await read();
    // The live fleet keeps coordinates rounded (41.903000000000006 comes back as 41.903).
    if (body.position && Math.abs(body.position.lat - reported.lat) < 1e-6 && !seen.has(reported.lat)) {
      seen.add(reported.lat);
      lags.push(Date.now() - reported.at);
    }
    await sleep(SHARE_POLL_MS);
  }
})();
for (let i = 0; i < REPORTS; i++) {
  const lat = 41.9 + i * 0.001;
  reported = { lat, at: Date.now() };
  await report({ id: beacon!.id, lat, lon: -87.63, timestamp: Date.now(), speed: 10 });
  await sleep(5_000);
}
await Promise.race([poller, sleep(10_000)]);
stopped = true; // a report the page never showed must not keep the bench running for ever
lags.sort((a, b) => a - b);

const perMinute = 60_000 / SHARE_POLL_MS;
/** How often the object re-reads a link it keeps (ShareViews.REREAD_MS in party/room/share-views.ts). */
const SHARE_REREAD_MS = 60_000;
write(
  "Share page: server cost per open share and staleness",
  [
    { metric: "requests per open share per minute", value: perMinute, unit: "requests/min" },
    {
      metric: "D1 reads per open share per minute (the link's re-read; counted in shares.worker.test.ts)",
      value: 60_000 / SHARE_REREAD_MS,
      unit: "reads/min",
    },
    { metric: "share read p50 (one page)", value: Number(percentile(alone.latencies, 50).toFixed(1)), unit: "ms" },
    { metric: "share read p95 (one page)", value: Number(percentile(alone.latencies, 95).toFixed(1)), unit: "ms" },
    { metric: "share reads/s, 50 pages at once", value: Math.round(fifty.perSecond), unit: "reads/s" },
    {
      metric: "position lag behind the report, max (reports every 5 s)",
      value: Math.round(lags.at(-1) ?? NaN),
      unit: "ms",
      target: "< 10,000",
    },
    { metric: "position lag, median", value: Math.round(percentile(lags, 50)), unit: "ms" },
  ],
  `The page polls every ${SHARE_POLL_MS / 1000} s; ${lags.length} of ${REPORTS} reports seen. An hour open costs ${perMinute * 60} small requests.`,
);
