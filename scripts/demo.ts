// The demo of `npm start` (DESIGN.md "Demo"): seeds the demo account and its fleet once, prints
// how to sign in, then drives the fleet through the public ingestion endpoint until Ctrl-C.
//   tsx scripts/demo.ts --url http://127.0.0.1:8787
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { DEMO_ACCOUNT } from "./sim/demo-fleet";
import { DEMO_MEMBER } from "./sim/demo-extras";
import { seedDemo } from "./sim/demo-seed";
import { resumeFrom } from "./sim/resume";
import { runSimulation, summary } from "./sim/runner";
import { demoFillUps } from "./sim/demo-fill-ups";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://localhost:8787" },
    // Beside the local D1 the session belongs to, so a fresh database also means a fresh session.
    session: { type: "string", default: ".wrangler/state/demo-session.json" },
  },
});
const url = values.url!;
const sessionFile = values.session!;

function savedToken(): string | null {
  try {
    return (JSON.parse(readFileSync(sessionFile, "utf8")) as { token?: string }).token ?? null;
  } catch {
    return null;
  }
}
const log = (line: string) => console.log(`[demo] ${line}`);

const stop = new AbortController();
process.once("SIGINT", () => stop.abort());
process.once("SIGTERM", () => stop.abort());

let seeded;
try {
  seeded = await seedDemo(url, log, savedToken());
  mkdirSync(dirname(sessionFile), { recursive: true });
  writeFileSync(sessionFile, JSON.stringify({ token: seeded.api.token }));
} catch (e) {
  console.error(`[demo] could not seed the demo fleet: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}

const appUrl = url.replace("127.0.0.1", "localhost");
console.log(`
  Demo fleet: ${seeded.beacons.length} vehicles moving in Chicago, New York, San Francisco and Austin.
  Sign in at ${appUrl}/login with
    e-mail:   ${DEMO_ACCOUNT.email}
    password: ${DEMO_ACCOUNT.password}
  or as the second member (role Member), ${DEMO_MEMBER.email}, same password.
  Places around the depots and alert rules are set: the Inbox fills as the fleet drives.
`);

const stats = await runSimulation({
  url,
  beacons: seeded.beacons,
  intervalMs: 4_000,
  resume: new Map([...resumeFrom(seeded.snapshot), ...seeded.overnight]),
  signal: stop.signal,
  // Quiet by default: `npm start` shares the terminal with the Worker's log.
  log: (line) => (line.includes("refused") || line.includes("reports sent") ? log(line) : undefined),
  // Each stop at the pump ends with its fill-up logged, receipt and all, as a driver would.
  onFillUp: demoFillUps(seeded.api, seeded.vehicles, log),
  // On a fresh start, two vehicles are nearly empty: a fill-up with its receipt within minutes.
  lowOnFuel: 2,
});
log(summary(stats));
