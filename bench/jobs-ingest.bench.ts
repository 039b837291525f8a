// Ingestion with a day of jobs (issue 43, docs/decisions/0055 and 0062): the same load against a
// workspace of 1,000 vehicles with 10,000 jobs planned for today (10 a vehicle, along the way it
// drives) and against one of 1,000 vehicles with none, in alternating rounds of this one run,
// through the real Worker as devices send it; accepted positions per second, and the ratio.
// Target (issue 43): >= 0.95.
import { dayOf, startOfDay } from "../shared/units/time-zone";
import { d1Query, newWorkspace, orderBeacons, osmandUrl } from "./fleet";
import { baseUrl, report as write } from "./lib";

const VEHICLES = 1000;
const JOBS_PER_VEHICLE = 10;
const CONCURRENCY = 50;
const REPORTS_PER_ROUND = 2000;
const ROUNDS = 4;
/** Device time between a vehicle's reports, as the fleet reports. */
const EVERY_MS = 5_000;
/** Northward per report at about 11 m/s (22 knots): 55 m. */
const STEP_DEG = 0.0005;
/** Jobs 330 m apart along each vehicle's line, the first one 330 m ahead. */
const JOB_GAP_DEG = 0.003;

const origin = (v: number) => ({ lat: 41.6 + (v % 40) * 0.01, lon: -87.9 + Math.floor(v / 40) * 0.01 });

// The workspace's zone is UTC (none set): device time within today, never in the future.
const now = Date.now();
const today = dayOf(now, "UTC");
const start = Math.max(startOfDay(today, "UTC"), now - 20 * 60_000);
if (start + ((ROUNDS * REPORTS_PER_ROUND) / VEHICLES + 2) * EVERY_MS > now)
  throw new Error("too close to midnight UTC for a day of device time: run again after 00:20 UTC");

function csvOf(date: string) {
  const lines = ["title,latitude,longitude,address,date,windowStart,windowEnd,vehicleName"];
  for (let v = 0; v < VEHICLES; v++) {
    const { lat, lon } = origin(v);
    for (let j = 0; j < JOBS_PER_VEHICLE; j++) {
      const at = `${(lat + (j + 1) * JOB_GAP_DEG).toFixed(6)},${lon.toFixed(6)}`;
      lines.push(`Stop ${v}-${j},${at},,${date},,${j < 5 ? "12:00" : ""},Vehicle ${v + 1}`);
    }
  }
  return lines;
}

/** 10,000 jobs by CSV, 5,000 lines an import (the import's bound). */
async function planDay(token: string) {
  const [header, ...lines] = csvOf(today);
  for (let i = 0; i < lines.length; i += 5000) {
    const res = await fetch(`${baseUrl}/api/jobs/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv" },
      body: [header, ...lines.slice(i, i + 5000)].join("\n"),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`import: ${res.status} ${text.slice(0, 300)}`);
  }
}

const setupStarted = performance.now();
const planned = await newWorkspace("Bench jobs, planned");
const plain = await newWorkspace("Bench jobs, none");
const fleets = [
  { name: "planned", beacons: await orderBeacons(planned.token, planned.workspaceId, VEHICLES), sent: 0 },
  { name: "none", beacons: await orderBeacons(plain.token, plain.workspaceId, VEHICLES), sent: 0 },
].map((f) => ({ ...f, stored: 0, seconds: 0 }));
console.log(`beacons ordered (${((performance.now() - setupStarted) / 1000).toFixed(0)} s); importing the day's jobs`);
await planDay(planned.token);
console.log(`jobs planned (${((performance.now() - setupStarted) / 1000).toFixed(0)} s)`);
const setupSeconds = (performance.now() - setupStarted) / 1000;

/**
 * The fleet's next `reports`, vehicle after vehicle (a vehicle's next report comes a whole fleet
 * later, so one vehicle never has two in flight): each drives north through its stops; every
 * fourth stops at its first stop and stays (arrivals, ETAs held at a stop).
 */
async function round(fleet: (typeof fleets)[number], reports: number) {
  const end = fleet.sent + reports;
  const begun = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (fleet.sent < end) {
        const n = fleet.sent++;
        const v = n % VEHICLES;
        const step = Math.floor(n / VEHICLES);
        const stays = v % 4 === 0 && step * STEP_DEG >= JOB_GAP_DEG;
        const { lat, lon } = origin(v);
        const res = await fetch(
          osmandUrl({
            id: fleet.beacons[v]!.id,
            lat: lat + Math.min(step * STEP_DEG, stays ? JOB_GAP_DEG : Infinity),
            lon,
            timestamp: start + step * EVERY_MS,
            speed: stays ? 0 : 22,
            ignition: true,
          }),
        );
        const body = (await res.json()) as { outcomes?: string[] };
        if (res.ok && body.outcomes?.[0] === "stored") fleet.stored++;
      }
    }),
  );
  fleet.seconds += (performance.now() - begun) / 1000;
}

// warm-up: each vehicle's first report (the planned workspace's object reads its day of jobs)
for (const fleet of fleets) await round(fleet, VEHICLES);
for (const fleet of fleets) Object.assign(fleet, { stored: 0, seconds: 0 });
for (let r = 0; r < ROUNDS; r++) {
  // alternate which goes first, so drift on a shared machine falls on both
  for (const fleet of r % 2 ? [...fleets].reverse() : fleets) await round(fleet, REPORTS_PER_ROUND);
}
const [withJobs, without] = fleets.map((f) => f.stored / f.seconds) as [number, number];
await new Promise((r) => setTimeout(r, 15_000)); // the object's last flush
const [rows] = d1Query<{ jobs: number; written: number; eta: number; arrived: number }>(
  `SELECT count(*) AS jobs, sum(version > created_version) AS written, sum(eta IS NOT NULL) AS eta,
     sum(status = 'arrived') AS arrived FROM jobs WHERE workspace_id = '${planned.workspaceId}'`,
);

write(
  "Ingestion with 10,000 jobs planned for the day",
  [
    { metric: "accepted positions per second, 10,000 jobs on 1,000 vehicles", value: Math.round(withJobs), unit: "/s" },
    { metric: "accepted positions per second, 1,000 vehicles, no jobs", value: Math.round(without), unit: "/s" },
    { metric: "ratio with / without", value: withJobs / without, unit: "×", target: "≥ 0.95×" },
    { metric: "jobs whose row the object wrote (status, ETA)", value: rows?.written ?? 0, unit: "jobs" },
    { metric: "jobs with an ETA at the end", value: rows?.eta ?? 0, unit: "jobs" },
    { metric: "jobs arrived at", value: rows?.arrived ?? 0, unit: "jobs" },
  ],
  [
    `${VEHICLES.toLocaleString("en-US")} vehicles per workspace, ${CONCURRENCY} requests in flight, one OsmAnd report each,`,
    `${ROUNDS} alternating rounds of ${REPORTS_PER_ROUND.toLocaleString("en-US")} reports after a warm-up of one report a vehicle;`,
    `device time ${EVERY_MS / 1000} s apart per vehicle. Each vehicle drives north through its ${JOBS_PER_VEHICLE} stops (330 m apart, half with a`,
    `window ending 12:00); every fourth stops at its first. Setup (2,000 beacons ordered, the CSV imports) took ${setupSeconds.toFixed(1)} s.`,
  ].join(" "),
);
