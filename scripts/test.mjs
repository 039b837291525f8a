// `npm test`: every suite in turn, then one closing line with the total over all of them,
// "N passed, N failed", which CI reads. Each typecheck project, eslint and the formatter check count as one test.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { offlineEnv } from "./worker-process.mjs";

const only = process.argv.slice(2);
const out = ".cache/test";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const exec = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...offlineEnv, ...env } }).status === 0;

function vitestCounts(file) {
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, "utf8"));
  return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrors ?? 0) };
}

function playwrightCounts(file) {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, "utf8"));
  const { stats } = report;
  // A browser test that failed once and passed on its retry (playwright.config.ts) counts as
  // passed, and is named here so a flaky test is seen and fixed, not hidden.
  for (const title of flakyTitles(report.suites)) console.log(`flaky (passed on retry): ${title}`);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
}

function flakyTitles(suites = [], path = []) {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const specs = (suite.specs ?? []).filter((spec) => spec.tests.some((t) => t.status === "flaky"));
    return [...specs.map((spec) => [...here, spec.title].join(" › ")), ...flakyTitles(suite.suites, here)];
  });
}

const vitest = (config, name) => () => {
  const file = `${out}/${name}.json`;
  const ok = exec(bin("vitest"), [
    "run",
    "--config",
    config,
    "--passWithNoTests",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${file}`,
  ]);
  const counts = vitestCounts(file) ?? { passed: 0, failed: 1 };
  if (!ok && counts.failed === 0) counts.failed = 1; // the run itself failed (e.g. a suite that did not load)
  return counts;
};

const single = (cmd, args) => () => (exec(cmd, args) ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

const suites = [
  [
    "typecheck",
    single(bin("tsc"), ["-p", "tsconfig.json"]),
    single(bin("tsc"), ["-p", "tsconfig.worker.json"]),
    single(bin("tsc"), ["-p", "tsconfig.node.json"]),
  ],
  [
    "lint",
    single(bin("eslint"), [".", "--max-warnings", "0"]),
    single(bin("prettier"), ["--check", ".", "--log-level", "warn"]),
  ],
  ["unit", vitest("vitest.unit.config.ts", "unit")],
  ["worker", vitest("vitest.worker.config.ts", "worker")],
  [
    "e2e",
    () => {
      if (!exec(bin("remix"), ["vite:build"])) return { passed: 0, failed: 1 };
      return { passed: 0, failed: 0 };
    },
    // The production bundle: proves `wrangler deploy` would ship the Worker, room and assets.
    single(bin("wrangler"), ["deploy", "--dry-run", "--outdir", ".cache/deploy"]),
    () => {
      const file = `${out}/e2e.json`;
      const ok = exec(bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
      const counts = playwrightCounts(file) ?? { passed: 0, failed: 1 };
      if (!ok && counts.failed === 0) counts.failed = 1;
      return counts;
    },
  ],
];

const results = [];
for (const [name, ...steps] of suites) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n━━ ${name} ━━`);
  const total = { passed: 0, failed: 0 };
  for (const step of steps) {
    const r = step();
    total.passed += r.passed;
    total.failed += r.failed;
  }
  results.push([name, total]);
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
