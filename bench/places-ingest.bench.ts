// Ingestion with places and alert rules (issue 21): the same load of 50 concurrent beacons against
// a workspace with 1,000 places and 10 alert rules, and against one with none, in alternating
// rounds of this one run; accepted positions per second, and the ratio. The places are spread
// over the area the beacons drive through, so vehicles really enter and leave them (alerts are
// written in the same batches as the positions).
import { newWorkspace, orderBeacons, osmandUrl } from "./fleet";
import { baseUrl, load, report as write } from "./lib";

const BEACONS = 50;
const PLACES = 1000;
const REPORTS_PER_ROUND = 1000;
const ROUNDS = 4;

async function api(token: string, path: string, json: unknown) {
  const res = await fetch(`${baseUrl}/api/${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`${path}: ${res.status}`);
}

/** Circles and hexagons of 100-400 m over the beacons' area (lat 40-40.5, lon -100 to -99.9). */
function place(i: number) {
  const lat = 40 + ((i * 7919) % 1000) / 2000;
  const lon = -100 + ((i * 104_729) % 1000) / 10_000;
  const r = 100 + (i % 4) * 100;
  const geometry =
    i % 2 === 0
      ? { type: "Circle", center: [lon, lat], radius: r }
      : {
          type: "Polygon",
          coordinates: [
            [
              ...Array.from({ length: 6 }, (_, k) => [
                lon + (r / 85_000) * Math.cos((k * Math.PI) / 3),
                lat + (r / 111_000) * Math.sin((k * Math.PI) / 3),
              ]),
              [lon + r / 85_000, lat],
            ],
          ],
        };
  return { name: `Place ${i}`, geometry };
}

const RULES = [
  { type: "place_enter" },
  { type: "place_exit" },
  { type: "speeding", speedMph: 30, minSeconds: 20 },
  { type: "speeding", speedMph: 60, minSeconds: 5 },
  { type: "idling", minutes: 10 },
  { type: "tow" },
  { type: "clock_ahead" },
  { type: "beacon_silent", minutes: 30 },
  { type: "idling", minutes: 30 },
  { type: "place_exit", placeId: null },
];

const watched = await newWorkspace("Bench places, watched");
const plain = await newWorkspace("Bench places, plain");
const setupStarted = performance.now();
await load(PLACES, 10, (i) => api(watched.token, "places", place(i)));
for (const rule of RULES) await api(watched.token, "alert-rules", rule);
const setupSeconds = (performance.now() - setupStarted) / 1000;

const fleets = [
  {
    name: "watched",
    beacons: await orderBeacons(watched.token, watched.workspaceId, BEACONS),
    step: new Array<number>(BEACONS).fill(0),
    stored: 0,
    seconds: 0,
  },
  {
    name: "plain",
    beacons: await orderBeacons(plain.token, plain.workspaceId, BEACONS),
    step: new Array<number>(BEACONS).fill(0),
    stored: 0,
    seconds: 0,
  },
];
const start = Date.now() - 86_400_000; // device time: yesterday, so no report is in the future

/** One round: each beacon a sequential device, its position moving ~11 m a second at ~25 mph. */
async function round(fleet: (typeof fleets)[number], reports: number) {
  let sent = 0;
  const begun = performance.now();
  await Promise.all(
    fleet.beacons.map(async (beacon, b) => {
      while (sent < reports) {
        sent++;
        const n = fleet.step[b]!++;
        const url = osmandUrl({
          id: beacon.id,
          lat: 40 + b * 0.01 + n * 0.0001,
          lon: -100 + n * 0.00005,
          timestamp: start + n * 1000,
          speed: 22,
          ignition: true,
        });
        const res = await fetch(url);
        const body = (await res.json()) as { outcomes?: string[] };
        if (res.ok && body.outcomes?.[0] === "stored") fleet.stored++;
      }
    }),
  );
  fleet.seconds += (performance.now() - begun) / 1000;
}

for (const fleet of fleets) await round(fleet, 200); // warm-up (the watched workspace's watch is loaded)
for (const fleet of fleets) Object.assign(fleet, { stored: 0, seconds: 0 });
for (let r = 0; r < ROUNDS; r++) {
  // alternate which goes first, so drift on a shared machine falls on both
  for (const fleet of r % 2 ? [...fleets].reverse() : fleets) await round(fleet, REPORTS_PER_ROUND);
}
const [withPlaces, without] = fleets.map((f) => f.stored / f.seconds) as [number, number];
const alerts = (await (
  await fetch(`${baseUrl}/api/alerts?limit=1000`, { headers: { Authorization: `Bearer ${watched.token}` } })
).json()) as { alerts: unknown[] };

write(
  "Ingestion with 1,000 places and 10 alert rules",
  [
    { metric: "accepted positions per second, 1,000 places + 10 rules", value: Math.round(withPlaces), unit: "/s" },
    { metric: "accepted positions per second, no places or rules", value: Math.round(without), unit: "/s" },
    { metric: "ratio with / without", value: withPlaces / without, unit: "×", target: "≥ 0.9×" },
    { metric: "alerts raised in the watched workspace (first 1,000 listed)", value: alerts.alerts.length, unit: "" },
  ],
  [
    `${BEACONS} concurrent beacons per workspace, ${ROUNDS} alternating rounds of ${REPORTS_PER_ROUND.toLocaleString("en-US")} OsmAnd reports each,`,
    `after a warm-up. The ${PLACES.toLocaleString("en-US")} places (circles and hexagons of 100-400 m) lie over the area the beacons drive,`,
    `and the rules are enter/exit, speeding, idling, tow, clock ahead and beacon silent. Setup (places and rules by REST) took ${setupSeconds.toFixed(1)} s.`,
  ].join(" "),
);
