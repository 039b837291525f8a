// `npm run bench`: build, start the Worker on a fresh local D1 (abuse limits relaxed), run each
// bench/*.bench.ts one after another against it, and write docs/benchmarks.md. Every bench is
// bounded and talks to 127.0.0.1 only; results are compared as ratios measured in this one run.
//   npm run bench              all benchmarks
//   npm run bench -- ingest    only bench/ingest*.bench.ts
//   BENCH_LOUD=1 npm run bench -- x   with the Worker's log (its warnings and errors, every request)
//   npm run bench -- plan [DIR…] [--seconds S] [--out FILE]   the route planner alone on Solomon's
//                              instances, inside workerd with no app Worker (bench/plan.bench.ts)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { migrateFreshDatabase, offlineEnv, run, startWorker } from "./worker-process.mjs";

const filters = process.argv.slice(2);
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

// The planner's bench needs neither the build nor the app Worker: it runs the planner in workerd
// on its own, and takes its own arguments (directories, --seconds, --out).
if (filters[0] === "plan") {
  const r = spawnSync(bin("tsx"), ["bench/plan.bench.ts", ...filters.slice(1)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
const port = Number(process.env.BENCH_PORT ?? 8877);
const persistTo = `.wrangler/bench-${port}`;
const outDir = ".cache/bench";

// The storage bench first: it sums the growth of every file of the local state, which the other
// benches' SQLite write-ahead logs would distort when they checkpoint (shrink) meanwhile.
const FIRST = "storage.bench.ts";
const benches = readdirSync("bench")
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !filters.length || filters.some((x) => f.startsWith(x)))
  .sort((a, b) => (b === FIRST) - (a === FIRST) || a.localeCompare(b));

if (!process.env.BENCH_SKIP_BUILD) await run(bin("remix"), ["vite:build"]);
rmSync(persistTo, { recursive: true, force: true });
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
// A fresh D1: every migration in one statement batch, not a local D1 started per file (ADR 0067).
await migrateFreshDatabase(persistTo, { stdio: "ignore" });
const worker = await startWorker({
  port,
  persistTo,
  quiet: !process.env.BENCH_LOUD,
  // development: the webhook bench delivers to a receiver on this machine, a loopback URL only
  // development allows (worker/alerts/webhook-target.ts).
  vars: { ENVIRONMENT: "development", APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000" },
});

const sections = [];
try {
  for (const file of benches) {
    const name = file.replace(/\.bench\.ts$/, "");
    const out = `${outDir}/${name}.json`;
    console.log(`\n━━ bench ${name} ━━`);
    const started = Date.now();
    const r = spawnSync(bin("tsx"), [`bench/${file}`], {
      stdio: "inherit",
      timeout: 12 * 60_000, // flat-cost runs 7 minutes of steady load after its setup
      env: {
        ...offlineEnv,
        BENCH_URL: worker.url,
        BENCH_PERSIST: persistTo,
        BENCH_OUT: out,
        BENCH_PARENT: String(process.pid),
        // The memory benches call gc() before they read the heap.
        NODE_OPTIONS: "--expose-gc",
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (r.status === 0 && existsSync(out)) sections.push({ name, seconds, ...JSON.parse(readFileSync(out, "utf8")) });
    else sections.push({ name, seconds, title: name, results: [], notes: `failed (exit ${r.status ?? r.signal})` });
  }
} finally {
  await worker.stop();
}

const versions = (pkg) => {
  // wrangler runs its own nested miniflare/workerd when the root one differs.
  const nested = `node_modules/wrangler/node_modules/${pkg}/package.json`;
  return JSON.parse(readFileSync(existsSync(nested) ? nested : `node_modules/${pkg}/package.json`, "utf8")).version;
};
const BENCHMARKS = "docs/benchmarks.md";
// The targets, the figures the docs quote and their history are written by hand at the end of
// docs/benchmarks.md, under this heading: a full run rewrites what is above it and keeps that part.
const HAND_KEPT = "## Targets and measured history (kept by hand)";
function handKept() {
  const previous = existsSync(BENCHMARKS) ? readFileSync(BENCHMARKS, "utf8") : "";
  const at = previous.indexOf(`\n${HAND_KEPT}\n`);
  return at < 0 ? "" : previous.slice(at + 1);
}
const nodeVersion = spawnSync(bin("node"), ["--version"], { encoding: "utf8" }).stdout.trim();
const lines = [
  "# Benchmarks",
  "",
  "Written by `npm run bench` (scripts/bench.mjs); do not edit by hand, except the section at the end,",
  `"${HAND_KEPT.slice(3)}", which each run carries over. Each bench runs against the`,
  "built Worker under `wrangler dev` on a fresh local D1, over loopback, on the machine below. The",
  "machine is shared and noisy: compare the ratios measured in the same run, not absolute numbers.",
  "",
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
  `- Node ${nodeVersion}, wrangler ${versions("wrangler")}, miniflare ${versions("miniflare")}`,
  "",
];
for (const s of sections) {
  lines.push(`## ${s.title}`, "", `Bench \`bench/${s.name}.bench.ts\`, ${s.seconds} s.`, "");
  if (s.results.length) {
    lines.push("| metric | value | target |", "|---|---:|---|");
    for (const r of s.results) {
      const value =
        r.value === null ? "none" : Number.isInteger(r.value) ? r.value.toLocaleString("en-US") : r.value.toFixed(2);
      lines.push(`| ${r.metric} | ${value} ${r.unit} | ${r.target ?? ""} |`);
    }
    lines.push("");
  }
  if (s.notes) lines.push(s.notes, "");
}
if (!filters.length) writeFileSync(BENCHMARKS, [...lines, handKept()].join("\n"));
else writeFileSync(`${outDir}/partial.md`, lines.join("\n"));
console.log(`\n${lines.join("\n")}`);
