// `npm start`: build, migrate the local D1, run the Worker on http://localhost:8787 (PORT
// overrides) with its realtime rooms, then seed and drive the demo fleet. Offline throughout.
import { existsSync, rmSync } from "node:fs";
import { applyMigrations, migrateFreshDatabase, run, startWorker, tickCronEveryMinute } from "./worker-process.mjs";

const port = Number(process.env.PORT ?? 8787);
const persistTo = ".wrangler/state";

await run(new URL("../node_modules/.bin/remix", import.meta.url).pathname, ["vite:build"]);
// A first start migrates its fresh D1 in one go (a local D1 per file took 3 s each: ADR 0067);
// later starts apply only the migrations the state has not seen.
if (existsSync(persistTo)) await applyMigrations(persistTo);
else await migrateFreshDatabase(persistTo);
// wrangler dev's own trace store, which local runs no longer write (scripts/worker-process.mjs):
// a checkout that ran an earlier build may hold hundreds of MB of it. Not product data.
rmSync(`${persistTo}/v3/observability`, { recursive: true, force: true });
const worker = await startWorker({ port, persistTo, vars: { APP_URL: `http://localhost:${port}` } });
const stopCron = tickCronEveryMinute(worker.url);
console.log(`\nFleet Ops is running at http://localhost:${port}\n`);

let demo = null;
const demoScript = new URL("./demo.ts", import.meta.url).pathname;
if (process.env.DEMO !== "0" && existsSync(demoScript)) {
  const { spawn } = await import("node:child_process");
  demo = spawn(new URL("../node_modules/.bin/tsx", import.meta.url).pathname, [demoScript, "--url", worker.url], {
    stdio: "inherit",
  });
}

const stop = async () => {
  stopCron();
  demo?.kill("SIGINT");
  await worker.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
