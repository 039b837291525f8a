// Issue 51's measured target (finding 2): workspace A holds its largest allowed job day (5,000 jobs,
// 200 on each of 25 vehicles) while its vehicles report; workspace B's `GET /api/jobs`, sync pull
// and customer page answer within 1.5x of the same with A idle (p95, one run). Before the bulk
// updates were looked up by primary key, A's ETA write-back scanned A's jobs per row and held D1
// for seconds, which every other workspace waited behind.
import { newWorkspace, orderBeacons, pull, report as sendReport, sleep } from "./fleet";
import { baseUrl, percentile, report } from "./lib";

const VEHICLES = 25;
const JOBS_PER_VEHICLE = 200;
const ROUNDS = Number(process.env.ISOLATION_ROUNDS ?? 60);
const HEADER = "title,latitude,longitude,address,date,windowStart,windowEnd,vehicleName";
const today = new Date().toISOString().slice(0, 10);

/** A's stops around one city, each vehicle's along its own line. */
const stopOf = (vehicle: number, i: number) => ({ lat: 41.8 + vehicle * 0.004, lon: -87.7 + i * 0.0005 });

function csvOf(vehicles: number, perVehicle: number) {
  const lines = [HEADER];
  for (let v = 0; v < vehicles; v++)
    for (let i = 0; i < perVehicle; i++) {
      const { lat, lon } = stopOf(v, i);
      lines.push(`Stop ${v}-${i},${lat.toFixed(6)},${lon.toFixed(6)},,${today},06:00,23:59,Vehicle ${v + 1}`);
    }
  return lines.join("\n");
}

async function call(path: string, token: string, init: { method?: string; body?: string; type?: string } = {}) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${token}`, ...(init.type ? { "Content-Type": init.type } : {}) },
    body: init.body,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function workspaceWithDay(name: string, vehicles: number, perVehicle: number) {
  const { token, workspaceId } = await newWorkspace(name);
  const beacons = await orderBeacons(token, workspaceId, vehicles);
  await call("/jobs/import", token, { method: "POST", body: csvOf(vehicles, perVehicle), type: "text/csv" });
  return { token, beacons };
}

const a = await workspaceWithDay("Isolation A", VEHICLES, JOBS_PER_VEHICLE);
const b = await workspaceWithDay("Isolation B", 2, 10);
const bJobs = (await call(`/jobs?date=${today}`, b.token)).jobs as { id: string }[];
const share = (await call(`/jobs/${bJobs[0]!.id}/shares`, b.token, { method: "POST" })) as { url: string };
const trackToken = new URL(share.url).pathname.split("/").pop()!;
let cookie = (await pull(b.token, "isolation-b", null)).cookie;

/** B's three requests, ROUNDS times each, in turn; latencies in ms. */
async function measureB() {
  const times = { jobs: [] as number[], pull: [] as number[], track: [] as number[] };
  const timed = async (into: number[], work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    into.push(performance.now() - started);
  };
  for (let i = 0; i < ROUNDS; i++) {
    await timed(times.jobs, () => call(`/jobs?date=${today}`, b.token));
    await timed(times.pull, async () => (cookie = (await pull(b.token, "isolation-b", cookie)).cookie));
    await timed(times.track, () => fetch(`${baseUrl}/api/track/${trackToken}`).then((r) => r.text()));
  }
  return times;
}

/** A's vehicles drive along their stops, each reporting every second, until `stop()`. */
function driveA() {
  let running = true;
  let sent = 0;
  const done = Promise.all(
    a.beacons.map(async (beacon, v) => {
      for (let step = 0; running; step++) {
        const { lat, lon } = stopOf(v, step % JOBS_PER_VEHICLE);
        await sendReport({ id: beacon.id, lat, lon, timestamp: Date.now(), speed: 20, ignition: true });
        sent++;
        await sleep(1000);
      }
    }),
  );
  return {
    async stop() {
      running = false;
      await done;
      return sent;
    },
  };
}

const p95 = (xs: number[]) =>
  percentile(
    [...xs].sort((x, y) => x - y),
    95,
  );
const idle = await measureB();
const driving = driveA();
await sleep(5000); // the object has picked up A's day and is writing its ETAs back
const loaded = await measureB();
const reports = await driving.stop();

const rows = (["jobs", "pull", "track"] as const).flatMap((k) => {
  const label = {
    jobs: "GET /api/jobs",
    pull: "sync pull (incremental)",
    track: "customer page GET /api/track/{token}",
  }[k];
  const ratio = p95(loaded[k]) / p95(idle[k]);
  console.log(
    `${label}: p95 idle ${p95(idle[k]).toFixed(1)} ms, A loaded ${p95(loaded[k]).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`,
  );
  return [
    { metric: `B's ${label}, p95 with A idle`, value: Math.round(p95(idle[k])), unit: "ms" },
    { metric: `B's ${label}, p95 with A's day loaded`, value: Math.round(p95(loaded[k])), unit: "ms" },
    { metric: `B's ${label}, loaded / idle`, value: Number(ratio.toFixed(2)), unit: "x", target: "≤ 1.5" },
  ];
});

report(
  "A job day of 5,000 in one workspace, another's requests",
  rows,
  [
    `Workspace A: ${VEHICLES} vehicles with ${JOBS_PER_VEHICLE} jobs each today (the per-vehicle and per-workspace day caps),`,
    `its vehicles each reporting every second along their stops (${reports} reports in the loaded phase). Workspace B:`,
    `2 vehicles, 20 jobs, one customer link. ${ROUNDS} rounds of B's three requests, one after another, with A idle and then`,
    "with A loaded, in one run.",
  ].join(" "),
);
