// Starting the built Worker locally with wrangler dev: shared by `npm start`, `npm run dev`, the
// browser tests and the benchmarks, so all of them run the product the same way.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

/**
 * Development defaults for every local run (npm start, dev, tests, benchmarks). wrangler.toml holds
 * production values only; a real MAPBOX_TOKEN, Google client etc. can be supplied through the
 * environment of `npm start` (same names) or a .dev.vars file.
 */
export const developmentVars = JSON.parse(
  readFileSync(new URL("../config/development.vars.json", import.meta.url), "utf8"),
);
const fromEnvironment = Object.fromEntries(
  Object.keys(developmentVars)
    .filter((k) => process.env[k])
    .map((k) => [k, process.env[k]]),
);

/** Keeps wrangler offline and quiet: no telemetry, no Request.cf lookup (DESIGN.md). */
const binDir = new URL("../node_modules/.bin", import.meta.url).pathname;
export const offlineEnv = {
  ...process.env,
  // The project's own Node 22 (the `node` dev dependency) first, even when called outside npm.
  PATH: `${binDir}:${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_LOG_SANITIZE: "false",
  // wrangler dev's local trace store (its "local explorer") records a span per Durable Object SQL
  // statement in a SQLite file under the persist directory: 1.3 KB per beacon report, kept
  // forever, and a CPU cost production does not have. The product's own logs still print.
  X_LOCAL_OBSERVABILITY: "false",
  // workerd hangs under libfaketime, which a browser-test run at a chosen hour preloads into its
  // test processes (playwright.config.ts E2E_CLOCK): a Worker a test starts itself goes without.
  LD_PRELOAD: "",
};

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: offlineEnv, ...options });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`)),
    );
    child.on("error", reject);
  });
}

export const wrangler = (args, options) => run(bin("wrangler"), args, options);

/** Applies the SQL migrations to the local D1 kept under `persistTo`. */
export function applyMigrations(persistTo, options) {
  return wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], options);
}

const migrationsDir = new URL("../migrations/", import.meta.url);

/**
 * Every migration on a D1 that has none yet (the browser tests' fresh databases), as
 * ONE `wrangler d1 execute`: `d1 migrations apply` starts a local D1 for each file, about 3 s each, so
 * 34 files took 112 s at load 15 (ADR 0067). Each file's rows in `d1_migrations` go with it, in the
 * table wrangler itself keeps, so a later `applyMigrations` on the same directory adds only newer ones.
 */
export async function migrateFreshDatabase(persistTo, options) {
  const files = readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const bookkeeping = [
    // wrangler's own definition of its migrations table (`wrangler d1 migrations apply`)
    `CREATE TABLE IF NOT EXISTS "d1_migrations"(
\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,
\t\tname       TEXT UNIQUE,
\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
  ];
  const sql = files.flatMap((name) => [
    readFileSync(new URL(name, migrationsDir), "utf8"),
    `\nINSERT INTO d1_migrations (name) VALUES ('${name}');\n`,
  ]);
  mkdirSync(persistTo, { recursive: true });
  const file = `${persistTo}/all-migrations.sql`;
  writeFileSync(file, [...bookkeeping, ...sql].join("\n"));
  await wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--file", file, "--yes"], options);
  rmSync(file);
}

/** A free loopback port for wrangler's inspector, so several Workers can run side by side. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * Starts `wrangler dev` on 127.0.0.1:`port` and resolves once it answers. `vars` override
 * wrangler.toml's [vars]. The returned `stop()` ends it and waits for the exit.
 */
export async function startWorker({ port, persistTo, vars = {}, quiet = false }) {
  const args = [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(await freePort()),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
    "--log-level",
    quiet ? "warn" : "info",
  ];
  for (const [key, value] of Object.entries({ ...developmentVars, ...fromEnvironment, ...vars })) {
    if (value !== "") args.push("--var", `${key}:${value}`);
  }
  const child = spawn(bin("wrangler"), args, {
    stdio: ["ignore", quiet ? "ignore" : "pipe", "inherit"],
    env: offlineEnv,
    detached: true,
  });
  if (!quiet) {
    // One log line per beacon report (the demo's simulator sends several a second), or per minute's
    // cron, would bury the address and the demo sign-in; every other line, errors included, goes through.
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      if (!/\[wrangler:info\] ((GET|POST) \/api\/ingest\/\S+|GET \/cdn-cgi\/handler\/scheduled\S*) 200 OK/.test(line))
        process.stdout.write(`${line}\n`);
    });
  }
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid, "SIGTERM");
      throw new Error("wrangler dev did not answer within 60 s");
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

/**
 * Runs the Worker's cron trigger (wrangler.toml: every minute) at the top of each minute, as
 * Cloudflare does in production: wrangler dev never fires it by itself, so without this a local
 * run would send no customer "arriving" message, relay no alert's e-mail or webhook and trim
 * nothing (worker/scheduled.ts). Returns a function that stops it.
 */
export function tickCronEveryMinute(url) {
  let timer;
  const next = () => {
    timer = setTimeout(
      async () => {
        try {
          const res = await fetch(`${url}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("* * * * *")}`);
          await res.arrayBuffer();
          if (!res.ok) console.error(`cron: the Worker answered ${res.status}`);
        } catch {
          // The Worker is restarting or stopping: the next minute tries again.
        }
        next();
      },
      60_000 - (Date.now() % 60_000),
    );
  };
  next();
  return () => clearTimeout(timer);
}
