// D1 statements per accepted report (issue 19): 1,000 vehicles of one workspace report as fast
// as the local Worker accepts them (100 concurrent devices, each vehicle in turn sending its next
// position), counted by the Worker's development D1 meter (db/d1-meter.ts). Amortised
// over the run: reads, writes and every statement of the batched writes, ingestion only (no
// client is connected, so no pull is counted).
import { newWorkspace, orderBeacons, report, spot } from "./fleet";
import { baseUrl, load, report as write } from "./lib";

const VEHICLES = 1_000;
const ROUNDS = 4;
const CONCURRENCY = 100;

interface Meter {
  roundTrips: number;
  statements: number;
}
async function meter(method: "GET" | "POST"): Promise<Meter> {
  const res = await fetch(`${baseUrl}/api/dev/d1-meter`, { method });
  if (!res.ok) throw new Error(`d1-meter: ${res.status}`);
  return (await res.json()) as Meter;
}

const ws = await newWorkspace("Bench Statements");
const beacons = await orderBeacons(ws.token, ws.workspaceId, VEHICLES);
const start = Date.now() - 3_600_000;
let stored = 0;
await meter("POST");
// Round 0 is every vehicle's first contact (the edge learns its workspace, the object reads its
// state from D1 once); the rounds after it are the steady state, metered on their own too.
let firstContact = 0;
let mid: Meter | null = null;
const run = await load(VEHICLES * ROUNDS, CONCURRENCY, async (i) => {
  const b = i % VEHICLES;
  const round = Math.floor(i / VEHICLES);
  const outcome = await report({
    id: beacons[b]!.id,
    ...spot(b, round),
    timestamp: start + round * 5_000,
    speed: 20,
    ignition: true,
  });
  if (outcome === "stored") stored++;
  if (outcome === "stored" && round === 0 && ++firstContact === VEHICLES) mid = await meter("GET");
});
const after = await meter("GET");
const steady = mid ? (after.statements - (mid as Meter).statements) / (stored - firstContact) : NaN;
// A beacon's first contact recurs once per isolate every 10 minutes at most (the edge's device
// directory keeps its workspace that long, worker/fleet/device-directory.ts); a vehicle reporting
// every 5 s sends 120 reports in that time. Counting the object's state read again each time too
// (it happens once per object lifetime), the amortised figure for a fleet that keeps reporting:
const PER_DIRECTORY_ENTRY = 120;
const firstContactPerVehicle = mid ? (mid as Meter).statements / VEHICLES : NaN;
const amortised = (firstContactPerVehicle + (PER_DIRECTORY_ENTRY - 1) * steady) / PER_DIRECTORY_ENTRY;

write(
  "D1 statements per report, 1,000 vehicles of one workspace",
  [
    { metric: "reports accepted (stored)", value: stored, unit: "" },
    { metric: "accepted reports per second", value: Math.round(stored / run.seconds), unit: "/s" },
    {
      metric: "D1 statements per accepted report",
      value: after.statements / stored,
      unit: "statements",
      target: "≤ 0.2",
    },
    { metric: "D1 round trips per accepted report", value: after.roundTrips / stored, unit: "round trips" },
    {
      metric: "D1 statements per accepted report after each vehicle's first (rounds 2 on)",
      value: steady,
      unit: "statements",
      target: "≤ 0.2",
    },
    {
      metric: "D1 statements per vehicle's first contact (round 1)",
      value: firstContactPerVehicle,
      unit: "statements",
    },
    {
      metric: `amortised over ${PER_DIRECTORY_ENTRY} reports (a report every 5 s while the edge keeps a device's workspace, 10 min)`,
      value: amortised,
      unit: "statements",
      target: "≤ 0.2",
    },
  ],
  [
    `${VEHICLES.toLocaleString("en-US")} vehicles (10 beacon orders) of one workspace; ${ROUNDS} rounds in which every vehicle sends its`,
    `next OsmAnd GET report (5 s apart in device time), ${CONCURRENCY} requests in flight. The Worker's development D1 meter`,
    `counts every statement of its isolate (the workspace objects' included: they run in the same isolate locally) from the first`,
    `report to the last acknowledgement, ingestion and its flushes. The steady-state figure leaves out each vehicle's first report`,
    `(its workspace looked up once per isolate, its state read once by the object); the last round's flush may still be pending.`,
    `The run's own figure counts a first contact for every 4 reports; a fleet that keeps reporting has one per device per isolate`,
    `every 10 minutes at most, so the amortised row combines the two measured parts for 120 reports (5 s apart) per first contact.`,
  ].join(" "),
);
