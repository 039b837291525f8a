// CPU per position through a steady load (issue 35): 200 vehicles report 5 fixes a second each (a
// tracker's one-second buffer: one JSON batch of 5 a second per vehicle), and the server's CPU per
// stored position is measured minute by minute. Before issue 35 it rose every minute (the
// positions' packing re-encoded each vehicle's whole hour every second); the target is minute 7
// within 1.1x of minute 2. BENCH_FLAT_MINUTES bounds the run on a shared machine (default 7).
// The CPU counted is the Worker's workerd only: wrangler dev's proxy in front of it is reported
// apart, as a control (it keeps no state, so its own drift between minutes is the machine's).
import { newWorkspace, orderBeacons, sleep, spot } from "./fleet";
import { readFileSync } from "node:fs";
import { baseUrl, load, serverCpuByProcess, report as write } from "./lib";

const VEHICLES = 200;
const FIXES_PER_SECOND = 5;
const MINUTES = Math.max(2, Number(process.env.BENCH_FLAT_MINUTES ?? 7));

const ws = await newWorkspace("Bench Flat Cost");
const beacons = await orderBeacons(ws.token, ws.workspaceId, VEHICLES);
const start = Date.now();
let failures = 0;

/** One second of the load: every vehicle's batch of 5 fixes; answers how many were acknowledged. */
async function second(s: number): Promise<number> {
  let stored = 0;
  await load(VEHICLES, 16, async (v) => {
    const location = Array.from({ length: FIXES_PER_SECOND }, (_, k) => {
      const n = s * FIXES_PER_SECOND + k;
      const { lat, lon } = spot(v, n / 10);
      return {
        timestamp: start + n * (1000 / FIXES_PER_SECOND),
        coords: { latitude: lat, longitude: lon, speed: 12, heading: 90, accuracy: 5 },
        extras: { ignition: true },
      };
    });
    const res = await fetch(`${baseUrl}/api/ingest/osmand`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ device_id: beacons[v]!.id, location }),
    });
    const body = (await res.json()) as { outcomes?: string[] };
    if (!res.ok) failures++;
    else stored += body.outcomes!.filter((o) => o === "stored").length;
  });
  return stored;
}

interface Minute {
  minute: number;
  positions: number;
  /** CPU of the Worker's workerd, and of wrangler dev's proxy in front of it (see serverCpuByProcess) */
  cpuMs: number;
  proxyMs: number;
  /** the machine's 1-minute load average at the minute's end (other work on its cores) */
  load: number;
}
const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const minutes: Minute[] = [];
let s = 0;
for (let minute = 1; minute <= MINUTES; minute++) {
  const cpu = serverCpuByProcess();
  let positions = 0;
  const minuteEnds = start + minute * 60_000;
  while (Date.now() < minuteEnds) {
    const due = start + s * 1000;
    if (Date.now() < due) await sleep(due - Date.now());
    positions += await second(s++);
  }
  const after = serverCpuByProcess();
  const m = {
    minute,
    positions,
    cpuMs: after.worker - cpu.worker,
    proxyMs: after.devProxy - cpu.devProxy,
    load: loadAverage(),
  };
  minutes.push(m);
  console.log(
    `minute ${minute}: ${positions} positions, ${(m.cpuMs / positions).toFixed(3)} ms Worker CPU each (dev proxy ${(m.proxyMs / positions).toFixed(3)}), load ${m.load}`,
  );
}
const perPosition = (m: Minute) => m.cpuMs / Math.max(1, m.positions);
const proxyPerPosition = (m: Minute) => m.proxyMs / Math.max(1, m.positions);
const second2 = minutes[1]!;
const last = minutes[minutes.length - 1]!;
write(
  "CPU per position through a steady load",
  [
    { metric: "positions stored", value: minutes.reduce((n, m) => n + m.positions, 0), unit: "" },
    { metric: "failed requests", value: failures, unit: "" },
    { metric: "Worker CPU per position, minute 2", value: perPosition(second2), unit: "ms" },
    { metric: `Worker CPU per position, minute ${last.minute}`, value: perPosition(last), unit: "ms" },
    {
      metric: `minute ${last.minute} / minute 2`,
      value: perPosition(last) / perPosition(second2),
      unit: "×",
      target: "≤ 1.1",
    },
    {
      metric: `control: wrangler dev's stateless proxy, minute ${last.minute} / minute 2 (the machine's noise)`,
      value: proxyPerPosition(last) / proxyPerPosition(second2),
      unit: "×",
    },
  ],
  [
    `${VEHICLES} vehicles, ${FIXES_PER_SECOND} fixes a second each, sent as one batch a second per vehicle (16 requests in flight);`,
    "Worker CPU is the CPU (user + system) of the workerd that runs the Worker, its objects and D1, divided by the positions stored that minute;",
    "wrangler dev's proxy in front of it (a second workerd, absent in production) is counted apart: it keeps no state, so its drift is the machine's.",
    "Per minute (positions; Worker ms, proxy ms per position; load average): " +
      minutes
        .map(
          (m) =>
            `${m.minute}: ${m.positions}; ${perPosition(m).toFixed(3)}, ${proxyPerPosition(m).toFixed(3)}; ${m.load}`,
        )
        .join(" | ") +
      ".",
    "Packing runs once a minute and writes each minute's fixes as new chunks; an hour's chunks are sealed into its block once, after the hour (docs/decisions/0027).",
  ].join(" "),
);
