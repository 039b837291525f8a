// Ingestion with the fuel watch at work (issue 42, docs/decisions/0050): the same load of 50
// concurrent beacons in two workspaces, alternating rounds of this one run; in one every report
// carries a fuel level (so every fix goes through the fuel watch, refuels open events and write
// rows), in the other none does (the watch returns at once and keeps no state: detection off).
// Accepted positions per second, and the ratio.
import { newWorkspace, orderBeacons, osmandUrl } from "./fleet";
import { baseUrl, report as write } from "./lib";

const BEACONS = 50;
const REPORTS_PER_ROUND = 1000;
const ROUNDS = 4;
/** Each beacon drives 20 reports, then stands 20 (refuelling at every other stop). */
const LEG = 20;

const fleets = await Promise.all(
  [
    { name: "fuel", fuel: true },
    { name: "no fuel", fuel: false },
  ].map(async (f) => {
    const ws = await newWorkspace(`Bench fuel, ${f.name}`);
    return {
      ...f,
      token: ws.token,
      beacons: await orderBeacons(ws.token, ws.workspaceId, BEACONS),
      step: new Array<number>(BEACONS).fill(0),
      stored: 0,
      seconds: 0,
    };
  }),
);
const start = Date.now() - 86_400_000; // device time: yesterday, so no report is in the future

/**
 * Beacon `b`'s `n`-th report: driving or standing by leg; the level stands at 30 % with a float's
 * wobble, and rises to 95 % from the tenth report of every other stop (a refuel).
 */
function fix(b: number, n: number, withFuel: boolean) {
  const leg = Math.floor(n / LEG);
  const k = n % LEG;
  const standing = leg % 2 === 1;
  const along = Math.ceil(leg / 2) * LEG + (standing ? 0 : k);
  const level = standing && leg % 4 === 3 && k >= 10 ? Math.min(95, 30 + (k - 9) * 5) : 30;
  return {
    lat: 40 + b * 0.01 + along * 0.0001,
    lon: -100 + along * 0.00005,
    speed: standing ? 0 : 22,
    ignition: !standing,
    ...(withFuel && { fuel: level + ((n * 7) % 5) / 5 - 0.4 }),
  };
}

async function round(fleet: (typeof fleets)[number], reports: number) {
  let sent = 0;
  const begun = performance.now();
  await Promise.all(
    fleet.beacons.map(async (beacon, b) => {
      while (sent < reports) {
        sent++;
        const n = fleet.step[b]!++;
        const res = await fetch(osmandUrl({ id: beacon.id, timestamp: start + n * 1000, ...fix(b, n, fleet.fuel) }));
        const body = (await res.json()) as { outcomes?: string[] };
        if (res.ok && body.outcomes?.[0] === "stored") fleet.stored++;
      }
    }),
  );
  fleet.seconds += (performance.now() - begun) / 1000;
}

for (const fleet of fleets) await round(fleet, 200); // warm-up
for (const fleet of fleets) Object.assign(fleet, { stored: 0, seconds: 0 });
for (let r = 0; r < ROUNDS; r++) {
  // alternate which goes first, so drift on a shared machine falls on both
  for (const fleet of r % 2 ? [...fleets].reverse() : fleets) await round(fleet, REPORTS_PER_ROUND);
}
const [on, off] = fleets.map((f) => f.stored / f.seconds) as [number, number];
const refuels = await Promise.all(
  fleets[0]!.beacons.slice(0, 5).map(async (beacon) => {
    const res = await fetch(
      `${baseUrl}/api/vehicles/${beacon.vehicleId}/events?type=refuel&from=2000-01-01T00:00:00Z`,
      {
        headers: { Authorization: `Bearer ${fleets[0]!.token}` },
      },
    );
    return ((await res.json()) as { events: unknown[] }).events.length;
  }),
);

write(
  "Ingestion with fuel detection on and off",
  [
    { metric: "accepted positions per second, every report with a fuel level", value: Math.round(on), unit: "/s" },
    { metric: "accepted positions per second, no fuel level (detection off)", value: Math.round(off), unit: "/s" },
    { metric: "ratio on / off", value: on / off, unit: "×", target: "≥ 0.95×" },
    { metric: "refuels found on the first 5 beacons", value: refuels.reduce((a, b) => a + b, 0), unit: "" },
  ],
  [
    `${BEACONS} concurrent beacons per workspace, ${ROUNDS} alternating rounds of ${REPORTS_PER_ROUND.toLocaleString("en-US")} OsmAnd reports each,`,
    `after a warm-up; each beacon drives ${LEG} reports and stands ${LEG}, refuelling at every other stop. Detection is per fix`,
    'in the workspace\'s object (domain/fuel/level-watch.ts); a tracker that sends no level costs it nothing, which is the "off" side.',
  ].join(" "),
);
