// `npm run bench:ab -- <rev> <bench> [--rounds N]`: the build of <rev> against this checkout's,
// interleaved in the same minutes, since a shared machine's load moves a figure more than most
// changes do (docs/decisions/0107). <rev> is checked out and built once in a worktree in the
// system's temporary directory (outside the tree, where no test or linter finds it); then each
// round runs `npm run bench -- <bench>` in both checkouts, one after the other (the order swapped
// every round so neither side always follows the other), each on its own Worker and fresh D1. The table gives each metric's median over the rounds for both builds,
// the ratio, and every round's value with the machine's load, also written to .cache/bench-ab.md.
//   npm run bench:ab -- main phone.                 before = main, after = the working tree
//   PHONE_ONLY=actions,warm npm run bench:ab -- HEAD~3 phone. --rounds 4
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt < 0 ? 3 : Number(args.splice(roundsAt, 2)[1]);
const [rev, filter] = args;
if (!rev || !filter || !(rounds > 0)) {
  console.error("usage: npm run bench:ab -- <rev> <bench filter> [--rounds N]");
  process.exit(2);
}

const here = process.cwd();
const git = (...a) => spawnSync("git", a, { encoding: "utf8", cwd: here }).stdout.trim();
const commit = git("rev-parse", "--verify", `${rev}^{commit}`);
if (!commit) {
  console.error(`bench:ab: no commit ${rev}`);
  process.exit(2);
}
const before = `${tmpdir()}/fleet-ops-bench-ab/${commit.slice(0, 12)}`;
if (!existsSync(before)) {
  mkdirSync(`${tmpdir()}/fleet-ops-bench-ab`, { recursive: true });
  spawnSync("git", ["worktree", "add", "--detach", before, commit], { stdio: "inherit", cwd: here });
  symlinkSync(resolve("node_modules"), `${before}/node_modules`);
}

const sides = { before: { dir: before, port: 8871 }, after: { dir: here, port: 8873 } };
const load1 = () => loadavg()[0].toFixed(1);

/** One `npm run bench -- <filter>` in `dir`; answers each matched bench's results by metric. */
function benchOnce(side, built) {
  const { dir, port } = sides[side];
  const env = { ...process.env, BENCH_PORT: String(port), ...(built ? { BENCH_SKIP_BUILD: "1" } : {}) };
  const started = load1();
  const r = spawnSync("node", ["scripts/bench.mjs", filter], {
    cwd: dir,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error(`bench in ${dir} exited ${r.status}`);
  const out = `${dir}/.cache/bench`;
  const values = new Map();
  for (const file of readdirSync(out).filter((f) => f.endsWith(".json"))) {
    const { title, results } = JSON.parse(readFileSync(`${out}/${file}`, "utf8"));
    // A metric's words in brackets carry figures of their own (least run, files): not part of its name.
    for (const { metric, value, unit } of results)
      values.set(`${title}: ${metric.replace(/ \([^)]*\)/g, "")}`, { value, unit });
  }
  return { values, load: `${started}–${load1()}` };
}

const runs = { before: [], after: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const side of order) {
    console.log(`\n━━ bench:ab round ${round + 1} of ${rounds}: ${side} ━━`);
    runs[side].push(benchOnce(side, round > 0));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
const metrics = [...runs.after[0].values.keys()].filter((m) => runs.before.every((r) => r.values.has(m)));
const lines = [
  `# bench:ab ${filter}: ${rev} (${commit.slice(0, 12)}) against the working tree`,
  "",
  `${rounds} rounds, interleaved; median over the rounds. Load average (1 min) per round, before: ${runs.before
    .map((r) => r.load)
    .join(", ")}; after: ${runs.after.map((r) => r.load).join(", ")}.`,
  "",
  "| metric | before | after | after / before | rounds before | rounds after |",
  "|---|---:|---:|---:|---|---|",
];
for (const m of metrics) {
  const b = runs.before.map((r) => r.values.get(m).value);
  const a = runs.after.map((r) => r.values.get(m).value);
  if ([...a, ...b].every((v) => v === 0)) continue; // a measure this run left out (PHONE_ONLY)
  const unit = runs.after[0].values.get(m).unit;
  const ratio = median(b) ? (median(a) / median(b)).toFixed(2) : "";
  lines.push(
    `| ${m} | ${fmt(median(b))} ${unit} | ${fmt(median(a))} ${unit} | ${ratio} | ${b.map(fmt).join(", ")} | ${a.map(fmt).join(", ")} |`,
  );
}
mkdirSync(".cache", { recursive: true });
writeFileSync(".cache/bench-ab.md", `${lines.join("\n")}\n`);
console.log(`\n${lines.join("\n")}`);
