// `npm run simulate -- --workspace <id> --email <e> --password <p>`: drives a workspace's beacons
// through the public ingestion endpoint until Ctrl-C (or --duration / --reports). See
// scripts/sim/options.ts for every option.
import { Api } from "./sim/api";
import { parseOptions, USAGE, UsageError } from "./sim/options";
import { resumeFrom } from "./sim/resume";
import { runSimulation, summary } from "./sim/runner";

let options;
try {
  options = parseOptions(process.argv.slice(2), process.env);
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`${e.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === "help") {
  console.log(USAGE);
  process.exit(0);
}

const api = new Api(options.url, options.token ?? null);
if (!options.token) await api.signIn(options.email!, options.password!);
await api.useWorkspace(options.workspace);
const beacons = await api.beacons();
if (beacons.length === 0) {
  console.error("This workspace has no beacons yet: order some at /infleet first.");
  process.exit(1);
}

const stop = new AbortController();
process.once("SIGINT", () => stop.abort());
process.once("SIGTERM", () => stop.abort());

console.log(`Simulating ${beacons.length} beacon(s) against ${options.url} (Ctrl-C stops)`);
const stats = await runSimulation({
  url: options.url,
  beacons,
  intervalMs: options.interval * 1000,
  durationMs: options.duration !== undefined ? options.duration * 1000 : undefined,
  maxReports: options.reports,
  seed: options.seed,
  resume: resumeFrom(await api.snapshot()),
  signal: stop.signal,
  log: (line) => console.log(line),
});
console.log(summary(stats));
process.exit(stats.failed > 0 && stats.accepted === 0 ? 1 : 0);
