import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// One announcer (issue 40, docs/decisions/0027 and 0058): a workspace's version goes up in one
// module, worker/workspace-object.ts, whose helpers announce what committed to the workspace's
// object, and only that module calls the object's `changed`. A write path that bumps the version
// or commits its own versioned batch elsewhere would change what pulls see without any open page
// hearing of it: this fails when one appears.
const root = join(dirname(new URL(import.meta.url).pathname), "..");
const THE_MODULE = "worker/workspace-object.ts";

/**
 * The workspace object's own writes of its live tables (docs/decisions/0059): its flush and its
 * alarm tasks, which bump with `bumpLiveVersion` and poke through the object's own pacer. No cron
 * writer is left: service due notices are an alarm task too, committed through this module's
 * versionedBatch (docs/decisions/0066).
 */
const OBJECT_LIVE_WRITES = [
  "party/beacon-watch/beacon-watch-d1.ts",
  "party/live-fleet/flush-batch.ts",
  "party/stop-addresses/stop-address-task.ts",
];

/**
 * Files that commit a batch stamping rows with the workspace's version but bump nothing: the
 * push's acknowledgement of mutations that wrote nothing (docs/decisions/0035), which nobody else
 * must hear of; its writes go through versionedBatch and are announced by worker/api/sync.ts.
 */
const UNVERSIONED_STAMPS = ["worker/sync/push.ts"];

/** The Worker's and the object's source files (tests and test factories may write D1 directly). */
function sourcesIn(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sourcesIn(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [relative(root, path)] : [];
  });
}

const sources = ["worker", "party"]
  .flatMap((folder) => sourcesIn(join(root, folder)))
  .map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));
const where = (pattern: RegExp) => sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);
const inWorker = (files: string[]) => files.filter((file) => file.startsWith("worker/"));

describe("the one announcer", () => {
  it("finds the Worker's and the object's sources (the scan itself works)", () => {
    expect(sources.map((s) => s.file)).toEqual(expect.arrayContaining([THE_MODULE, ...OBJECT_LIVE_WRITES]));
    expect(sources.length).toBeGreaterThan(100);
  });

  it("bumps a workspace's version in worker/workspace-object.ts alone, and the object's live writes in the object", () => {
    expect(where(/\bbumpVersions?\(/)).toEqual([THE_MODULE]);
    expect(where(/\bbumpLiveVersion\(/).sort()).toEqual(OBJECT_LIVE_WRITES);
  });

  it("writes no workspace version by hand: no `version + 1` of workspaces, no stamp read from them spelled out", () => {
    // db/workspace-version.ts spells both out once; a copy of either is a version bump or stamp
    // that the checks by helper name above cannot see (the cron's alert expiry was one).
    expect(where(/\$\{workspaces\.version\}\s*\+/)).toEqual([]);
    expect(where(/SELECT\s+"?version"?\s+FROM\s+"?workspaces"?/i)).toEqual([]);
  });

  it("commits no batch of version-stamped rows outside those", () => {
    const stamping = where(/\bversionOf(?:Row)?\(/).filter((file) => where(/\.batch\(/).includes(file));
    expect(inWorker(stamping).sort()).toEqual([THE_MODULE, ...UNVERSIONED_STAMPS].sort());
    // In the object, only the files of its live write path stamp rows with the version.
    expect(where(/\bversionOf\(/).filter((file) => file.startsWith("party/"))).toEqual(OBJECT_LIVE_WRITES);
  });

  it("calls the object's changed() from that module alone, and nothing else tells the object of a change", () => {
    expect(inWorker(where(/\.changed\(/))).toEqual([THE_MODULE]);
    // The calls folded into `changed` stay gone.
    const retired = /\.(?:poke|forgetChanges|closeSessions|closeUser|forgetShare|forgetDevicesOf)\(/;
    expect(inWorker(where(retired))).toEqual([]);
  });
});
