import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// One writer, one announcer (issue 40, docs/decisions/0027, 0058; issue 52, docs/decisions/0081).
// What this scan adds to the types: the types (db/client.ts `Db`, db/writer.ts, checked by
// worker/write-path.type-test.ts) make a write of a live table, a bump or a stamp outside the one
// writer a compile error; this checks that the ways around the types stay closed (the raw binding,
// another Drizzle client, a cast to the writer's handle, SQL spelled out) and that only
// worker/workspace-object.ts tells a workspace's object of a change.
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const THE_WRITER = "db/writer.ts";
const THE_ANNOUNCER = "worker/workspace-object.ts";

/** The Worker's, the object's and the data layer's source files (tests and test factories may write D1 directly). */
function sourcesIn(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sourcesIn(path);
    const source = entry.name.endsWith(".ts") && !/\.test\.ts$|\.type-test\.ts$/.test(entry.name);
    return source ? [relative(root, path)] : [];
  });
}

const sources = ["worker", "party", "db"]
  .flatMap((folder) => sourcesIn(join(root, folder)))
  .map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));
const where = (pattern: RegExp) => sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
const inWorker = (files: string[]) => files.filter((file) => file.startsWith("worker/"));

describe("the one writer", () => {
  it("finds the Worker's, the object's and the data layer's sources (the scan itself works)", () => {
    expect(sources.map((s) => s.file)).toEqual(expect.arrayContaining([THE_WRITER, THE_ANNOUNCER, "db/client.ts"]));
    expect(sources.length).toBeGreaterThan(100);
  });

  it("bumps and stamps a workspace's version in db/writer.ts alone, by helper or spelled out in SQL", () => {
    expect(where(/\b(?:bumpVersions?|bumpLiveVersion|versionOf(?:Row)?)\(/)).toEqual([THE_WRITER]);
    expect(where(/\$\{workspaces\.version\}\s*\+/)).toEqual([THE_WRITER]);
    // db/bulk.ts stamps bulk rows of its caller's, which only the writer's builders can run (`LiveWrites`).
    expect(where(/SELECT\s+"?version"?\s+FROM\s+"?workspaces"?/i).sort()).toEqual(["db/bulk.ts", THE_WRITER]);
  });

  it("gives every module the handle that cannot write a live table: D1 only through `database`, one Drizzle client", () => {
    // Every use of the binding is `database(env.DB)`: no `env.DB.prepare`, no binding handed on.
    const bare = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/[\w$.]*\benv\.DB\b/g)]
        .filter((m) => !text.slice(0, m.index).endsWith("database("))
        .map(() => file),
    );
    expect(bare).toEqual([]);
    // One Drizzle client of D1 (the object's positions have their own, of its SQLite: party/positions/store.ts).
    expect(where(/from "drizzle-orm\/d1"/)).toEqual(["db/client.ts"]);
    expect(where(/\.\$client\b/)).toEqual([]);
    // Only the writer turns a `Db` into the builders that can write the live tables.
    expect(where(/as\s+(?:unknown\s+as\s+)?LiveWrites\b/)).toEqual([THE_WRITER]);
  });

  it("writes a live table in raw SQL only through the writer's builders", () => {
    const rawLiveWrite =
      /(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`[]?(?:vehicles|telemetry|vehicle_events|alerts|jobs)\b/i;
    // The route plan's guard, an INSERT that fails the batch when a job changed, is built with `live.run`.
    expect(where(rawLiveWrite)).toEqual(["worker/jobs/route-plan-apply.ts"]);
    expect(readFileSync(join(root, "worker/jobs/route-plan-apply.ts"), "utf8")).toMatch(
      /live\.run\(\s*sql\.raw\(`INSERT INTO "jobs"/,
    );
  });

  it("calls the object's changed() from worker/workspace-object.ts alone, and nothing else tells the object of a change", () => {
    expect(inWorker(where(/\.changed\(/))).toEqual([THE_ANNOUNCER]);
    // The calls folded into `changed` stay gone.
    const retired = /\.(?:poke|forgetChanges|closeSessions|closeUser|forgetShare|forgetDevicesOf)\(/;
    expect(inWorker(where(retired))).toEqual([]);
  });
});
