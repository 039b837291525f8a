// D1 statements per second for one workspace of 1,000 vehicles reporting every 5 s (issue 35:
// ≤ 2 with no page open, ≤ 10 with pages open), counted by the Worker's development D1 meter
// (db/d1-meter.ts): reads, writes and every statement of the batched ones. Two phases of
// D1_RATE_SECONDS each (default 30): no client connected, then three Node clients connected to
// the workspace's room that pull on every poke as a browser does (bench/fanout.ts). Every
// vehicle has reported once before the meter starts (its first contact reads D1 once).
import { connectClients, meter, type Meter } from "./fanout";
import { newWorkspace, orderBeacons, report, sleep, spot } from "./fleet";
import { load, report as write } from "./lib";

const VEHICLES = 1_000;
const INTERVAL_MS = 5_000;
const SECONDS = Math.max(10, Number(process.env.D1_RATE_SECONDS ?? 30));
const CLIENTS = 3;

const ws = await newWorkspace("Bench D1 Rate");
const beacons = await orderBeacons(ws.token, ws.workspaceId, VEHICLES);
let step = 0;
let refused = 0;

/** Every vehicle reports once, spread over the interval (a fleet's reports arrive evenly). */
async function round() {
  const started = Date.now();
  const s = step++;
  await load(VEHICLES, 50, async (v) => {
    const due = started + (v * INTERVAL_MS) / VEHICLES;
    if (Date.now() < due) await sleep(due - Date.now());
    const outcome = await report({
      id: beacons[v]!.id,
      ...spot(v, s),
      timestamp: Date.now(),
      speed: 20,
      ignition: true,
    });
    if (outcome !== "stored") refused++;
  });
}

/** Statements per second over `seconds` of the steady load. */
async function phase(seconds: number): Promise<{ perSecond: number; reports: number }> {
  await meter("POST");
  const before = await meter("GET");
  const started = Date.now();
  let rounds = 0;
  while (Date.now() - started < seconds * 1000) {
    await round();
    rounds++;
  }
  await sleep(2_000); // the last flush (the alarm's pace) lands
  const after = await meter("GET");
  printTop(before, after);
  return {
    perSecond: (after.statements - before.statements) / ((Date.now() - started) / 1000),
    reports: rounds * VEHICLES,
  };
}

/** Where the phase's statements went, most first (on stderr, for whoever tunes the flush). */
function printTop(before: Meter, after: Meter) {
  const rows = Object.entries(after.byStatement)
    .map(([sql, n]) => [sql, n - (before.byStatement[sql] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  for (const [sql, n] of rows.slice(0, 12)) console.error(`  ${String(n).padStart(6)}  ${sql}`);
}

await round(); // first contact: each vehicle's object state is read once
const idle = await phase(SECONDS);
console.error(`no page open: ${idle.perSecond.toFixed(2)} statements/s`);
const clients = await connectClients(ws, CLIENTS);
await sleep(1_000);
const watched = await phase(SECONDS);
const pulls = clients.open.reduce((n, c) => n + c.pulls, 0);
clients.close();
console.error(`${CLIENTS} pages open: ${watched.perSecond.toFixed(2)} statements/s, ${pulls} pulls`);

write("D1 statements per second, one workspace of 1,000 vehicles at 5 s", [
  { metric: "reports refused", value: refused, unit: "" },
  { metric: "D1 statements per second, no page open", value: idle.perSecond, unit: "/s", target: "≤ 2" },
  {
    metric: `D1 statements per second, ${CLIENTS} pages open (${pulls} pulls)`,
    value: watched.perSecond,
    unit: "/s",
    target: "≤ 10",
  },
]);
