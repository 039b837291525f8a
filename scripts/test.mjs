// `npm test`: every suite, then one closing line with the total over all of them,
// "N passed, N failed", which CI reads. Each typecheck project, eslint and the formatter check count as one test.
// Suites that are single-threaded run side by side (docs/decisions/0067-a-faster-npm-test.md): their
// output is printed whole, in the suites' order, so the log reads as if they had run in turn.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { offlineEnv } from "./worker-process.mjs";

const only = process.argv.slice(2);
const out = ".cache/test";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

/**
 * Runs a command to its end; true when it exited 0. `log` is the suite's printer: live output, or a
 * buffer printed when the suite's turn comes.
 */
function exec(log, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: log.live ? "inherit" : ["ignore", "pipe", "pipe"],
      env: { ...offlineEnv, ...env },
    });
    child.stdout?.on("data", (chunk) => log.write(chunk));
    child.stderr?.on("data", (chunk) => log.write(chunk));
    child.on("error", (error) => {
      log.write(`${cmd}: ${error.message}\n`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
  });
}

function vitestCounts(file) {
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, "utf8"));
  return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrors ?? 0) };
}

function playwrightCounts(log, file) {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, "utf8"));
  const { stats } = report;
  // A browser test that failed once and passed on its retry (playwright.config.ts) counts as
  // passed, and is named here so a flaky test is seen and fixed, not hidden.
  for (const title of flakyTitles(report.suites)) log.write(`flaky (passed on retry): ${title}\n`);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
}

function flakyTitles(suites = [], path = []) {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const specs = (suite.specs ?? []).filter((spec) => spec.tests.some((t) => t.status === "flaky"));
    return [...specs.map((spec) => [...here, spec.title].join(" › ")), ...flakyTitles(suite.suites, here)];
  });
}

/**
 * A run at a chosen hour (E2E_CLOCK, docs/decisions/0077) reaches the vitest suites too, each
 * starting at that instant: the Node suite under libfaketime (and E2E_TIME_ZONE as its TZ), the
 * Worker suite through TEST_CLOCK_OFFSET_MS (workerd hangs under libfaketime; worker/test-clock.ts
 * shifts its Date instead). The browser suites work out their own offset (playwright.config.ts).
 */
function clockEnv(name) {
  const clock = process.env.E2E_CLOCK;
  if (!clock) return {};
  const offsetMs = Date.parse(clock) - Date.now();
  if (Number.isNaN(offsetMs)) throw new Error(`E2E_CLOCK is not a date: ${clock}`);
  if (name === "worker") return { TEST_CLOCK_OFFSET_MS: String(offsetMs) };
  const seconds = Math.round(offsetMs / 1000);
  return {
    LD_PRELOAD: "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    FAKETIME: `${seconds >= 0 ? "+" : ""}${seconds}`,
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
    ...(process.env.E2E_TIME_ZONE ? { TZ: process.env.E2E_TIME_ZONE } : {}),
  };
}

const vitest = (config, name) => async (log) => {
  const file = `${out}/${name}.json`;
  const args = ["run", "--config", config, "--passWithNoTests", "--reporter=default", "--reporter=json"];
  const ok = await exec(log, bin("vitest"), [...args, `--outputFile.json=${file}`], clockEnv(name));
  const counts = vitestCounts(file) ?? { passed: 0, failed: 1 };
  if (!ok && counts.failed === 0) counts.failed = 1; // the run itself failed (e.g. a suite that did not load)
  return counts;
};

/** One Playwright project's run, counted from its JSON report. */
const playwright =
  (project, args, env = {}) =>
  async (log) => {
    const file = `${out}/e2e-${project.replace(/\W+/g, "-")}.json`;
    const ok = await exec(log, bin("playwright"), ["test", "--project", project, ...args], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      ...env,
    });
    const counts = playwrightCounts(log, file) ?? { passed: 0, failed: 1 };
    if (!ok && counts.failed === 0) counts.failed = 1;
    return counts;
  };

const single = (cmd, args) => async (log) =>
  (await exec(log, cmd, args)) ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };

const suites = {
  typecheck: [
    single(bin("tsc"), ["-p", "tsconfig.json"]),
    single(bin("tsc"), ["-p", "tsconfig.worker.json"]),
    single(bin("tsc"), ["-p", "tsconfig.node.json"]),
  ],
  lint: [
    single(bin("eslint"), [".", "--max-warnings", "0"]),
    single(bin("prettier"), ["--check", ".", "--log-level", "warn"]),
  ],
  unit: [vitest("vitest.unit.config.ts", "unit")],
  worker: [vitest("vitest.worker.config.ts", "worker")],
  // The browser tests' build, a suite of its own so it can run beside the Worker suite (below).
  build: [
    async (log) =>
      (await exec(log, bin("remix"), ["vite:build"])) ? { passed: 0, failed: 0 } : { passed: 0, failed: 1 },
    // The production bundle: proves `wrangler deploy` would ship the Worker, room and assets.
    single(bin("wrangler"), ["deploy", "--dry-run", "--outdir", ".cache/deploy"]),
  ],
  e2e: [
    // The two projects of playwright.config.ts as two runs, the `alone` one without its dependency:
    // as one run, a failure side by side would skip every `alone` spec and shrink the total.
    // Only base-map.spec.ts (alone) uses the Worker with a Mapbox token, so side by side starts none.
    playwright("side by side", [], { E2E_NO_TOKEN_WORKER: "1" }),
    playwright("alone", ["--no-deps"]),
  ],
};
// `npm test e2e` builds first, as it always has.
if (only.includes("e2e") && !only.includes("build")) only.push("build");

/**
 * Stages run in turn; the lanes of a stage run side by side, each its suites in turn. typecheck and
 * lint (eslint, prettier) are one process at a time each, so two lanes fill the two cores CI has.
 * The unit suite waits for them: beside tsc, its slowest test (app/map/offline-labels.test.ts) ran
 * past vitest's 5 s on a busy machine. The Worker suite is one test file at a time in one workerd,
 * about one core, so the browser tests' build (vite, then wrangler's bundle: one process at a time)
 * runs beside it (docs/decisions/0101); the browser suite takes the last stage alone.
 */
const stages = [[["typecheck"], ["lint"]], [["unit"]], [["worker"], ["build"]], [["e2e"]]];

async function runSuite(name, log) {
  log.write(`\n━━ ${name} ━━\n`);
  const total = { passed: 0, failed: 0 };
  for (const step of suites[name]) {
    const r = await step(log);
    total.passed += r.passed;
    total.failed += r.failed;
  }
  return total;
}

// The first lane of a stage prints as it goes; the others keep their output until it is their turn.
const liveLog = { live: true, write: (text) => process.stdout.write(text) };
const bufferedLog = () => {
  const chunks = [];
  return { live: false, chunks, write: (text) => chunks.push(Buffer.from(text)) };
};

const results = [];
for (const stage of stages) {
  const lanes = stage.map((lane) => lane.filter((name) => !only.length || only.includes(name))).filter((l) => l.length);
  const runs = lanes.flatMap((lane, i) => {
    let previous = Promise.resolve();
    return lane.map((name) => {
      const log = i === 0 ? liveLog : bufferedLog();
      previous = previous.then(() => runSuite(name, log));
      return { name, log, done: previous };
    });
  });
  for (const run of runs) {
    const total = await run.done;
    if (!run.log.live) process.stdout.write(Buffer.concat(run.log.chunks));
    results.push([run.name, total]);
  }
}

console.log("\n━━ summary ━━");
let passed = 0;
let failed = 0;
for (const [name, r] of results) {
  console.log(`${name.padEnd(10)} ${r.passed} passed, ${r.failed} failed`);
  passed += r.passed;
  failed += r.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
