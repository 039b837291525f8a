// CPU per position through a steady load (issue 35): 200 vehicles report 5 fixes a second each (a
// tracker's one-second buffer: one JSON batch of 5 a second per vehicle), and the server's CPU per
// stored position is measured minute by minute. Before issue 35 it rose every minute (the
// positions' packing re-encoded each vehicle's whole hour every second); the target is minute 7
// within 1.1x of minute 2. BENCH_FLAT_MINUTES bounds the run on a shared machine (default 7).
import { newWorkspace, orderBeacons, sleep, spot } from "./fleet";
import { baseUrl, load, serverCpuMs, report as write } from "./lib";

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
  cpuMs: number;
}
const minutes: Minute[] = [];
let s = 0;
for (let minute = 1; minute <= MINUTES; minute++) {
  const cpu = serverCpuMs();
  let positions = 0;
  const minuteEnds = start + minute * 60_000;
  while (Date.now() < minuteEnds) {
    const due = start + s * 1000;
    if (Date.now() < due) await sleep(due - Date.now());
    positions += await second(s++);
  }
  minutes.push({ minute, positions, cpuMs: serverCpuMs() - cpu });
  console.log(
    `minute ${minute}: ${positions} positions, ${((serverCpuMs() - cpu) / positions).toFixed(3)} ms CPU each`,
  );
}
const perPosition = (m: Minute) => m.cpuMs / Math.max(1, m.positions);
const second2 = minutes[1]!;
const last = minutes[minutes.length - 1]!;
write(
  "CPU per position through a steady load",
  [
    { metric: "positions stored", value: minutes.reduce((n, m) => n + m.positions, 0), unit: "" },
    { metric: "failed requests", value: failures, unit: "" },
    { metric: "server CPU per position, minute 2", value: perPosition(second2), unit: "ms" },
    { metric: `server CPU per position, minute ${last.minute}`, value: perPosition(last), unit: "ms" },
    {
      metric: `minute ${last.minute} / minute 2`,
      value: perPosition(last) / perPosition(second2),
      unit: "×",
      target: "≤ 1.1",
    },
  ],
  [
    `${VEHICLES} vehicles, ${FIXES_PER_SECOND} fixes a second each, sent as one batch a second per vehicle (16 requests in flight);`,
    "server CPU is the bench Worker's workerd processes' (user + system), divided by the positions stored that minute.",
    "Per minute: " +
      minutes.map((m) => `${m.minute}: ${perPosition(m).toFixed(3)} ms (${m.positions})`).join("; ") +
      ".",
    "Packing runs once a minute and writes each minute's fixes as new chunks; an hour's chunks are sealed into its block once, after the hour (docs/decisions/0027).",
  ].join(" "),
);
