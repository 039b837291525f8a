// The planner's benchmark (issue 54, ../shared/DESIGN.md "Jobs and routes"): every Solomon-format
// file in ../shared/routing/solomon/ and in each directory given, planned inside workerd (the
// production runtime, through Miniflare, the planner bundled with esbuild), each answer checked
// here by the published rules independently of the planner (domain/routing/solomon.ts), one line
// per instance, then the summary line; --out writes the routes so anyone can check them.
//   npm run bench -- plan [DIR…] [--seconds S] [--out FILE]
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkSolomon, type SolomonInstance } from "../domain/routing/solomon";
import { report } from "./lib";

const SHARED = "../shared/routing/solomon";

interface Outcome {
  name: string;
  vehicles: number;
  bestVehicles: number;
  distance: number;
  gap: number;
  seconds: number;
  feasible: boolean;
  errors: string[];
  routes: number[][];
}

function options(argv: string[]) {
  const dirs = [SHARED];
  let seconds = 1;
  let out: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--seconds") seconds = Number(argv[++i]);
    else if (argv[i] === "--out") out = argv[++i] ?? null;
    else dirs.push(argv[i]!);
  }
  if (!(seconds > 0)) throw new Error("--seconds takes a positive number");
  return { dirs, seconds, out };
}

function instances(dirs: string[]): SolomonInstance[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as SolomonInstance),
  );
}

async function startPlanner(): Promise<Miniflare> {
  const bundle = await build({
    entryPoints: ["bench/plan-worker.ts"],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
  });
  try {
    const mf = new Miniflare({ modules: true, script: bundle.outputFiles[0]!.text, compatibilityDate: "2025-09-01" });
    await mf.ready;
    return mf;
  } catch (error) {
    throw new Error(`could not start workerd through Miniflare to run the planner: ${String(error)}`);
  }
}

async function solve(mf: Miniflare, instance: SolomonInstance, seconds: number): Promise<Outcome> {
  const answer = await mf.dispatchFetch("http://planner/", {
    method: "POST",
    body: JSON.stringify({ instance, seconds, seed: 1 }),
  });
  if (!answer.ok) throw new Error(`${instance.name}: the planner answered ${answer.status}: ${await answer.text()}`);
  const { routes, ms } = (await answer.json()) as { routes: number[][]; ms: number };
  const check = checkSolomon(instance, routes);
  const best = instance.bestKnown ?? { vehicles: NaN, distance: NaN };
  return {
    name: instance.name,
    vehicles: check.vehicles,
    bestVehicles: best.vehicles,
    distance: check.distance,
    gap: (check.distance / best.distance - 1) * 100,
    seconds: ms / 1000,
    feasible: check.errors.length === 0,
    errors: check.errors,
    routes,
  };
}

const sign = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;

function line(o: Outcome): string {
  const vehicles = `${o.vehicles} vehicles (best ${o.bestVehicles})`;
  const verdict = o.feasible ? "feasible" : `INFEASIBLE: ${o.errors.slice(0, 3).join("; ")}`;
  return `${o.name.padEnd(8)} ${vehicles.padEnd(24)} distance ${o.distance.toFixed(2).padStart(8)}  gap ${sign(o.gap).padStart(6)} %  ${o.seconds.toFixed(2)} s  ${verdict}`;
}

function summarise(outcomes: Outcome[], seconds: number) {
  const mean = (f: (o: Outcome) => number) => outcomes.reduce((sum, o) => sum + f(o), 0) / outcomes.length;
  const allFeasible = outcomes.every((o) => o.feasible);
  const over = outcomes.filter((o) => o.vehicles > o.bestVehicles + 1).length;
  const summary = `plan: mean gap ${mean((o) => o.gap).toFixed(2)} % over ${outcomes.length} instances, all feasible: ${allFeasible ? "yes" : "no"}, mean ${mean((o) => o.seconds).toFixed(2)} s`;
  const table = [
    "| instance | vehicles (best) | distance | gap | time |",
    "|---|---:|---:|---:|---:|",
    ...outcomes.map(
      (o) =>
        `| ${o.name} | ${o.vehicles} (${o.bestVehicles}) | ${o.distance.toFixed(2)} | ${sign(o.gap)} % | ${o.seconds.toFixed(2)} s |`,
    ),
  ].join("\n");
  if (process.env.BENCH_OUT)
    report(
      "Plan the day: Solomon's VRPTW instances",
      [
        {
          metric: "mean gap to the best-known distance",
          value: mean((o) => o.gap),
          unit: "%",
          target: "≤ 2.0 % (VROOM +1.63 %)",
        },
        { metric: "instances over best-known vehicles + 1", value: over, unit: "", target: "0" },
        { metric: "infeasible answers", value: outcomes.filter((o) => !o.feasible).length, unit: "", target: "0" },
        {
          metric: "mean time per instance",
          value: mean((o) => o.seconds),
          unit: "s",
          target: `≤ 1 s (budget ${seconds} s)`,
        },
      ],
      `Planned inside workerd (Miniflare), seed 1, each answer checked by the published rules.\n\n${table}\n\n\`${summary}\``,
    );
  return summary;
}

const { dirs, seconds, out } = options(process.argv.slice(2));
const mf = await startPlanner();
const outcomes: Outcome[] = [];
try {
  for (const instance of instances(dirs)) {
    const outcome = await solve(mf, instance, seconds);
    outcomes.push(outcome);
    console.log(line(outcome));
  }
} finally {
  await mf.dispose();
}
if (out) {
  // One instance a line: { "<name>": [[customer ids of route 1 in order], …], … }
  const lines = outcomes.map((o) => `  ${JSON.stringify(o.name)}: ${JSON.stringify(o.routes)}`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `{\n${lines.join(",\n")}\n}\n`);
}
console.log(summarise(outcomes, seconds));
