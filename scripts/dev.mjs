// `npm run dev`: the hot-reload loop. The Worker (API, rooms, D1) runs under wrangler dev on
// WORKER_PORT (8787); Vite serves the pages with hot reload on http://localhost:5173 and proxies
// /api and /parties (websockets too) to it. Both share the local D1 under .wrangler/state.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { applyMigrations, offlineEnv, run, startWorker, tickCronEveryMinute } from "./worker-process.mjs";

const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const persistTo = ".wrangler/state";
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

// The Worker bundles the Remix server build, so it needs one to start.
if (!existsSync("build/server/index.js")) await run(bin("remix"), ["vite:build"]);
await applyMigrations(persistTo);
const worker = await startWorker({ port: workerPort, persistTo, vars: { APP_URL: "http://localhost:5173" } });
const stopCron = tickCronEveryMinute(worker.url);
const vite = spawn(bin("remix"), ["vite:dev"], {
  stdio: "inherit",
  env: { ...offlineEnv, WORKER_PORT: String(workerPort) },
});

const stop = async () => {
  stopCron();
  vite.kill("SIGTERM");
  await worker.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
vite.on("exit", stop);
