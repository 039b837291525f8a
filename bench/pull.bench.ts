// Pull cost (issues 4 and 11): an incremental pull after one change must not grow with the fleet
// (10,000 vehicles against 10, measured alternately in this run), its bytes must follow the change,
// the initial pull of 10,000 vehicles with telemetry and events must stay under 1 s and 500 bytes
// of JSON per vehicle, and the D1 work per report must not grow with the clients connected
// (1 against 100, bench/fanout.ts). PULL_BENCH_ONLY=fanout runs only that part, =initial all but it.
import { request } from "node:http";
import { gzipSync } from "node:zlib";
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "../shared/sync/sync-protocol";
import { fanout, startMeter, type FanoutResult } from "./fanout";
import { fleetOf, newWorkspace, orderBeacons, pull, report, reportAll, spot, type Fleet } from "./fleet";
import { baseUrl, percentile, report as write } from "./lib";

const ROUNDS = 20;
const FANOUT_REPORTS = 60;
const FANOUT_RATE = 10; // reports per second

const fan: FanoutResult[] = [];
// PULL_BENCH_ONLY=initial leaves the fan-out out (it takes minutes with 100 clients).
if (process.env.PULL_BENCH_ONLY !== "initial") {
  await startMeter();
  for (const clients of [0, 1, 100]) fan.push(await fanout(clients, FANOUT_REPORTS, FANOUT_RATE));
}
const [none, one, hundred] = fan as [FanoutResult?, FanoutResult?, FanoutResult?];
const fanoutRows =
  !none || !one || !hundred
    ? []
    : [
        ...fan.map((f) => ({
          metric: `D1 statements per report, ${f.clients} connected client${f.clients === 1 ? "" : "s"} (${f.pulls.toLocaleString("en-US")} pulls, ${f.socketPulls.toLocaleString("en-US")} over the socket)`,
          value: f.statementsPerReport,
          unit: `statements (${f.roundTripsPerReport.toFixed(2)} round trips)`,
        })),
        {
          metric: "ratio D1 statements per report, 100 / 1 clients",
          value: hundred.statementsPerReport / one.statementsPerReport,
          unit: "×",
          target: "≈ 1×",
        },
        {
          metric: "pull share of D1 statements per report, 100 / 1 clients (minus 0 clients)",
          value:
            (hundred.statementsPerReport - none.statementsPerReport) /
            Math.max(1e-9, one.statementsPerReport - none.statementsPerReport),
          unit: "×",
        },
      ];
const fanoutNote = [
  `Fan-out: ${FANOUT_REPORTS} OsmAnd reports at ${FANOUT_RATE}/s to a 100-vehicle workspace with 0, 1 and 100 Node clients`,
  `connected to its room (with a ticket), each pulling on every poke with its own client group and cookie, over the socket`,
  `as the browser's sync worker does (docs/decisions/0013); D1 statements and round trips`,
  `counted by the Worker's development meter (db/d1-meter.ts), ingestion included.`,
].join(" ");
if (process.env.PULL_BENCH_ONLY === "fanout") {
  write("Sync pull cost", fanoutRows, fanoutNote);
  process.exit(0);
}
const gzipped = (patch: unknown) => gzipSync(JSON.stringify(patch)).byteLength;
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

const small: Fleet = await (async () => {
  const ws = await newWorkspace("Bench Fleet 10");
  const beacons = await orderBeacons(ws.token, ws.workspaceId, 10);
  await reportAll(beacons, 10, 0, Date.now() - 60_000);
  return { ...ws, beacons };
})();
const large = await fleetOf(10_000);

// Initial pulls (cookie null, a new client group each time): the first screen of a new browser.
const initial: { ms: number; bytes: number; gz: number; ops: number }[] = [];
for (let i = 0; i < 3; i++) {
  const p = await pull(large.token, crypto.randomUUID(), null);
  initial.push({ ms: p.ms, bytes: p.bytes, gz: i === 0 ? gzipped(p.patch) : 0, ops: p.patch.length });
}
/** The bytes of an initial pull on the wire, as a browser asking for gzip receives them. */
function wireBytes(token: string): Promise<{ bytes: number; encoding: string }> {
  const body = JSON.stringify({
    profileID: "bench",
    clientGroupID: crypto.randomUUID(),
    cookie: null,
    pullVersion: PROTOCOL_VERSION,
    schemaVersion: SCHEMA_VERSION,
  });
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/sync/pull`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Encoding": "gzip, br" },
    });
    req.on("response", (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      res.on("end", () => resolve({ bytes, encoding: String(res.headers["content-encoding"] ?? "identity") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
const wire = await wireBytes(large.token);
const telemetryPuts = (await pull(large.token, crypto.randomUUID(), null)).patch.filter((op) =>
  op.key?.startsWith("telemetry/"),
).length;

// Incremental pulls: one report moves one vehicle, then the client pulls from its cookie.
let step = 1;
const time = Date.now();
async function incremental(fleet: Fleet, group: string, cookie: number, changed: number) {
  for (let v = 0; v < changed; v++) {
    const b = fleet.beacons[(step * 13 + v) % fleet.beacons.length]!;
    const outcome = await report({
      id: b.id,
      ...spot(step + v, step),
      timestamp: time + step * 1000 + v,
      speed: 25,
      ignition: true,
    });
    if (outcome !== "stored") throw new Error(`report not stored: ${outcome}`);
  }
  step++;
  return pull(fleet.token, group, cookie);
}

interface Side {
  fleet: Fleet;
  group: string;
  cookie: number;
  ms: number[];
  bytes: number[];
}
async function side(fleet: Fleet): Promise<Side> {
  const group = crypto.randomUUID();
  return { fleet, group, cookie: (await pull(fleet.token, group, null)).cookie, ms: [], bytes: [] };
}
const sides = { small: await side(small), large: await side(large) };
for (let round = 0; round < ROUNDS + 2; round++) {
  // Alternate which side goes first so machine noise falls on both equally.
  const order = round % 2 ? [sides.small, sides.large] : [sides.large, sides.small];
  for (const side of order) {
    const p = await incremental(side.fleet, side.group, side.cookie, 1);
    side.cookie = p.cookie;
    if (round < 2) continue; // warm-up
    side.ms.push(p.ms);
    side.bytes.push(p.bytes);
  }
}

// Bytes follow the change: 10 vehicles moved between two pulls of the large workspace.
const ten = await incremental(large, sides.large.group, sides.large.cookie, 10);

const smallMs = median(sides.small.ms);
const largeMs = median(sides.large.ms);
const oneChangeBytes = median(sides.large.bytes);
const best = initial.reduce((a, b) => (a.ms < b.ms ? a : b));
write(
  "Sync pull cost",
  [
    { metric: "incremental pull after 1 change, 10 vehicles, p50", value: smallMs, unit: "ms" },
    { metric: "incremental pull after 1 change, 10,000 vehicles, p50", value: largeMs, unit: "ms" },
    { metric: "ratio 10,000 / 10 vehicles", value: largeMs / smallMs, unit: "×", target: "≤ 2×" },
    {
      metric: "incremental pull after 1 change, 10 vehicles, size p50",
      value: median(sides.small.bytes),
      unit: "bytes",
    },
    { metric: "incremental pull after 1 change, 10,000 vehicles, size p50", value: oneChangeBytes, unit: "bytes" },
    {
      metric: "incremental pull after 10 changes, 10,000 vehicles, size",
      value: ten.bytes,
      unit: "bytes",
      target: "≈ 10 × one change",
    },
    {
      metric: "initial pull, 10,000 vehicles with telemetry, time (best of 3)",
      value: best.ms,
      unit: "ms",
      target: "< 1,000 ms",
    },
    {
      metric: "initial pull, 10,000 vehicles with telemetry, time (median of 3)",
      value: median(initial.map((p) => p.ms)),
      unit: "ms",
    },
    { metric: "initial pull, 10,000 vehicles, JSON size", value: best.bytes / 1e6, unit: "MB", target: "< 5 MB" },
    {
      metric: "initial pull, JSON bytes per vehicle (its vehicle, telemetry and events)",
      value: best.bytes / large.beacons.length,
      unit: "bytes",
      target: "≤ 500 bytes",
    },
    { metric: "initial pull, 10,000 vehicles, gzipped (node:zlib)", value: initial[0]!.gz / 1e6, unit: "MB" },
    {
      metric: `initial pull, 10,000 vehicles, on the wire from wrangler dev (${wire.encoding})`,
      value: wire.bytes / 1e6,
      unit: "MB",
    },
    {
      metric: "initial pull, patch operations (telemetry puts)",
      value: best.ops,
      unit: `ops (${telemetryPuts} telemetry)`,
    },
    ...fanoutRows,
  ],
  [
    `Pulls go over HTTP to POST /api/sync/pull with Replicache 15's request body; time is to the last byte of the answer.`,
    `Incremental: ${ROUNDS} rounds (after 2 warm-up rounds), each one OsmAnd report then a pull from the previous cookie,`,
    `alternating the 10- and 10,000-vehicle workspaces so the shared machine's noise falls on both; medians compared.`,
    `Initial: cookie null from a new client group (vehicles, telemetry and the latest timeline events of every vehicle).`,
    `The JSON size is what the Worker produces; wrangler dev (like Cloudflare) compresses it for a client that accepts`,
    `gzip, so the wire size is what a browser downloads. The 10,000 vehicles come from 100 beacon orders; their first`,
    `telemetry and open trip were written into D1 directly in one statement (see bench/fleet.ts), every change after that`,
    `is an OsmAnd report. Ops: ${ten.patch.length} patch operations for 10 changed vehicles.`,
    fanoutNote,
  ].join(" "),
);
