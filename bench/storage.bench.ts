// Bytes on disk per stored position (issue 19): 100 beacons send 40,000 positions (400 each, in
// JSON batches of 200 as a tracker's buffer would), and the local state's files under the bench's
// --persist-to directory (D1, Durable Object storage, R2: everything wrangler dev keeps) are
// measured before and a minute after, so background work (alarms, compaction) has run.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { newWorkspace, orderBeacons, sleep, spot } from "./fleet";
import { baseUrl, load, report as write } from "./lib";

const BEACONS = 100;
const PER_BEACON = 400;
const PER_REQUEST = 200;
const SETTLE_MS = 60_000;

/** Every file under `dir`, by path. */
function filesUnder(dir: string, out = new Map<string, number>()): Map<string, number> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else out.set(path, statSync(path).size);
  }
  return out;
}

/**
 * Growth in bytes of the files whose path passes `keep`. The stores are D1 (v3/d1), the Durable
 * Objects' SQLite (v3/do) and R2 (v3/r2); wrangler dev also keeps its own request traces
 * (v3/observability), which grow per request, not per position. SQLite's -wal files hold pages
 * not yet checkpointed into the database (bounded at about 4 MB per database locally; production
 * bills the database's size), so they are shown apart too.
 */
function growth(
  before: Map<string, number>,
  after: Map<string, number>,
  keep: (path: string) => boolean = () => true,
): number {
  let total = 0;
  for (const [path, size] of after) if (keep(path)) total += size - (before.get(path) ?? 0);
  return total;
}
const inStores = (path: string) => /\/v3\/(d1|do|r2)\//.test(path);

/**
 * Each SQLite database's size as if checkpointed (its pages with the write-ahead log's applied:
 * `page_count` x `page_size`, free pages included), which is what the database holds and what
 * production reports and bills (`ctx.storage.sql.databaseSize`, D1's database size); every other
 * file (R2's objects) as its size. Read from copies (log first, then the database), so the
 * running Worker is not disturbed. Without this, pages written before the first snapshot but
 * still in a log (the migrations', the signup's) count as growth once a checkpoint moves them
 * into the database, since a local log file keeps its size after a checkpoint.
 */
function checkpointedSizes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const scratch = mkdtempSync(join(tmpdir(), "bench-storage-"));
  try {
    for (const [path, size] of filesUnder(dir)) {
      if (/-(wal|shm)$/.test(path)) continue;
      if (!path.endsWith(".sqlite")) {
        out.set(path, size);
        continue;
      }
      const copy = join(scratch, `${out.size}.sqlite`);
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
      copyFileSync(path, copy);
      const db = new DatabaseSync(copy);
      const pages = db.prepare("PRAGMA page_count").get() as { page_count: number };
      const pageSize = db.prepare("PRAGMA page_size").get() as { page_size: number };
      db.close();
      out.set(path, pages.page_count * pageSize.page_size);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}
const isLog = (path: string) => /-(wal|shm)$/.test(path);

const persist = process.env.BENCH_PERSIST;
if (!persist) throw new Error("BENCH_PERSIST is not set (run through npm run bench)");
const ws = await newWorkspace("Bench Storage");
const beacons = await orderBeacons(ws.token, ws.workspaceId, BEACONS);
await sleep(5_000);
const before = filesUnder(persist);
const checkpointedBefore = checkpointedSizes(persist);
const start = Date.now() - 86_400_000;
let stored = 0;
await load(BEACONS * (PER_BEACON / PER_REQUEST), 10, async (i) => {
  const b = i % BEACONS;
  const part = Math.floor(i / BEACONS);
  const location = Array.from({ length: PER_REQUEST }, (_, k) => {
    const n = part * PER_REQUEST + k;
    const { lat, lon } = spot(b, n);
    return {
      timestamp: start + n * 5_000,
      coords: { latitude: lat, longitude: lon, speed: 12, heading: 90, accuracy: 5, altitude: 120 },
      battery: { level: 0.8 },
      extras: { ignition: true },
    };
  });
  const res = await fetch(`${baseUrl}/api/ingest/osmand`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ device_id: beacons[b]!.id, location }),
  });
  const body = (await res.json()) as { outcomes?: string[] };
  if (!res.ok) throw new Error(`ingest: ${res.status}`);
  stored += body.outcomes!.filter((o) => o === "stored").length;
});
await sleep(SETTLE_MS);
const after = filesUnder(persist);
const checkpointedAfter = checkpointedSizes(persist);
const checkpointed = growth(checkpointedBefore, checkpointedAfter, inStores);
const stores = growth(before, after, inStores);
const databases = growth(before, after, (path) => inStores(path) && !isLog(path));

write(
  "Bytes on disk per stored position",
  [
    { metric: "positions stored", value: stored, unit: "" },
    { metric: "local state growth", value: Math.round(growth(before, after) / 1024), unit: "KiB" },
    {
      metric: "bytes per stored position in D1, the objects' SQLite and R2, databases as checkpointed",
      value: checkpointed / stored,
      unit: "B",
      target: "≤ 48",
    },
    {
      metric: "bytes on disk per stored position, every file (write-ahead logs at their high-water mark)",
      value: growth(before, after) / stored,
      unit: "B",
    },
    { metric: "same, D1 + object storage + R2 only (no dev-server traces)", value: stores / stored, unit: "B" },
    { metric: "same, their databases without SQLite's -wal/-shm files", value: databases / stored, unit: "B" },
    {
      metric: "of the checkpointed figure, the Durable Objects' storage",
      value: growth(checkpointedBefore, checkpointedAfter, (p) => p.includes("/v3/do/")) / stored,
      unit: "B",
    },
    {
      metric: "of the checkpointed figure, D1",
      value: growth(checkpointedBefore, checkpointedAfter, (p) => p.includes("/v3/d1/")) / stored,
      unit: "B",
    },
    {
      metric: "of which the Durable Objects' storage",
      value: growth(before, after, (p) => p.includes("/v3/do/") && !isLog(p)) / stored,
      unit: "B",
    },
  ],
  [
    `${BEACONS} beacons of one workspace send ${PER_BEACON} positions each (5 s apart, with speed, heading, accuracy, altitude,`,
    `battery and ignition) as OsmAnd JSON batches of ${PER_REQUEST}; every file under wrangler dev's --persist-to directory`,
    `(D1, Durable Object storage, R2) is summed before the first report and ${SETTLE_MS / 1000} s after the last answer;`,
    `then the same for D1, the objects' SQLite and R2 alone (wrangler dev's own request traces left out), and without SQLite's`,
    `write-ahead logs, which production checkpoints into the database (docs/decisions/0023). The target's row reads each database`,
    `as checkpointed (page_count x page_size of a copy with its log applied, free pages included), before and after: a local log`,
    `file keeps its size after a checkpoint, so the every-file figure counts pages written before the bench (the migrations') again.`,
  ].join(" "),
);
