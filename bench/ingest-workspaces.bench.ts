// Eight workspaces reporting at once (issue 19): each workspace's reports go to its own Durable
// Object, so one busy customer must not starve another. Each of 8 workspaces has 20 beacons that
// report one after another (OsmAnd GET, device time a second apart) for a fixed time, first
// workspace 0 alone, then all eight together; accepted reports per second per workspace are
// compared with what one gets alone divided by its share of the machine (all eight share this
// machine's cores with each other and with this client, so a fair share is an eighth).
import { newWorkspace, orderBeacons, osmandUrl, sleep } from "./fleet";
import { report as write, serverCpuMs } from "./lib";

const WORKSPACES = 8;
const BEACONS = 20;
const RUN_MS = 15_000;

interface BenchFleet {
  token: string;
  workspaceId: string;
  beacons: Awaited<ReturnType<typeof orderBeacons>>;
  /** reports sent so far (device time moves on across runs) */
  sent: number;
}
const fleets: BenchFleet[] = [];
for (let w = 0; w < WORKSPACES; w++) {
  const ws = await newWorkspace(`Bench Workspaces ${w}`);
  fleets.push({ ...ws, beacons: await orderBeacons(ws.token, ws.workspaceId, BEACONS), sent: 0 });
}
const start = Date.now() - 86_400_000;

/** Every beacon of these workspaces reports until the time is up; stored reports per workspace. */
async function report(which: BenchFleet[]): Promise<{ stored: number[]; seconds: number; cpuMs: number }> {
  const stored = which.map(() => 0);
  const cpu = serverCpuMs();
  const begun = performance.now();
  await Promise.all(
    which.flatMap((fleet, w) =>
      fleet.beacons.map(async (beacon, b) => {
        while (performance.now() - begun < RUN_MS) {
          const n = fleet.sent++;
          const res = await fetch(
            osmandUrl({
              id: beacon.id,
              lat: 40 + b * 0.01 + n * 0.00001,
              lon: -100,
              timestamp: start + n * 1000,
              speed: 20,
              ignition: true,
            }),
          );
          const body = (await res.json()) as { outcomes?: string[] };
          if (res.ok && body.outcomes?.[0] === "stored") stored[w]!++;
        }
      }),
    ),
  );
  return { stored, seconds: (performance.now() - begun) / 1000, cpuMs: serverCpuMs() - cpu };
}

await report([fleets[1]!]); // warm-up, another workspace
const alone = await report([fleets[0]!]);
const together = await report(fleets);
// Eight objects pack a minute of positions each a minute later (party/positions/): waited out, so
// the next bench measures a quiet server.
await sleep(70_000);
const aloneRate = alone.stored[0]! / alone.seconds;
const rates = together.stored.map((s) => s / together.seconds);
const fairShare = aloneRate / WORKSPACES;
const total = rates.reduce((a, b) => a + b, 0);

write(
  "Eight workspaces reporting at once",
  [
    { metric: "one workspace alone (20 beacons), accepted reports/s", value: Math.round(aloneRate), unit: "/s" },
    { metric: "eight together (20 beacons each), accepted reports/s in all", value: Math.round(total), unit: "/s" },
    { metric: "eight together, the slowest workspace", value: Math.round(Math.min(...rates)), unit: "/s" },
    { metric: "eight together, the fastest workspace", value: Math.round(Math.max(...rates)), unit: "/s" },
    { metric: "slowest workspace / (alone ÷ 8)", value: Math.min(...rates) / fairShare, unit: "×", target: "≥ 0.8×" },
    { metric: "server CPU per report, alone", value: alone.cpuMs / alone.stored[0]!, unit: "ms" },
    {
      metric: "server CPU per report, eight together",
      value: together.cpuMs / together.stored.reduce((a, b) => a + b, 0),
      unit: "ms",
    },
  ],
  [
    `${WORKSPACES} workspaces of ${BEACONS} beacons each; every beacon sends OsmAnd GET reports one after another for ${RUN_MS / 1000} s.`,
    `Workspace 0 runs alone first (after a warm-up of another workspace), then all eight at once. On this machine every`,
    `workspace's object, the edge and this client share the same cores, so a workspace's share of the machine is 1/${WORKSPACES}:`,
    `the target is that the slowest workspace still gets 0.8 × (its rate alone ÷ ${WORKSPACES}). The server's CPU per report`,
    `(workerd's user + system time) shows whether running eight objects costs more per report than one.`,
  ].join(" "),
);
