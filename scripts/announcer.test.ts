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
 * The one cron writer left (docs/decisions/0059): service-due notices, committed with a full
 * version bump and announced through announceWrites from worker/scheduled.ts. Beacon silence,
 * clock-ahead and stop addresses are the workspace object's own alarm jobs (party/alarm/).
 */
const CRON_WRITERS_LEFT = ["worker/maintenance/due-notifications.ts"];

/**
 * Files that commit a batch stamping rows with the workspace's version but bump nothing: the
 * push's acknowledgement of mutations that wrote nothing (docs/decisions/0035), which nobody else
 * must hear of; its writes go through versionedBatch and are announced by worker/api/sync.ts.
 */
const UNVERSIONED_STAMPS = ["worker/sync/push.ts"];

/** The Worker's source files (tests and test factories may write D1 directly). */
function workerSources(folder = join(root, "worker")): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : workerSources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [relative(root, path)] : [];
  });
}

const sources = workerSources().map((file) => ({ file, text: readFileSync(join(root, file), "utf8") }));
const where = (pattern: RegExp) => sources.filter(({ text }) => pattern.test(text)).map(({ file }) => file);

describe("the one announcer", () => {
  it("finds the Worker's sources (the scan itself works)", () => {
    expect(sources.map((s) => s.file)).toContain(THE_MODULE);
    expect(sources.length).toBeGreaterThan(100);
  });

  it("bumps a workspace's version in worker/workspace-object.ts alone", () => {
    expect(where(/\bbump(?:Live)?Version\(/).sort()).toEqual([THE_MODULE, ...CRON_WRITERS_LEFT].sort());
  });

  it("commits no batch of version-stamped rows outside that module", () => {
    const stamping = where(/\bversionOf\(/).filter((file) => where(/\.batch\(/).includes(file));
    expect(stamping.sort()).toEqual([THE_MODULE, ...CRON_WRITERS_LEFT, ...UNVERSIONED_STAMPS].sort());
  });

  it("calls the object's changed() from that module alone, and nothing else tells the object of a change", () => {
    expect(where(/\.changed\(/)).toEqual([THE_MODULE]);
    // The calls folded into `changed` stay gone.
    const retired = /\.(?:poke|forgetChanges|closeSessions|closeUser|forgetShare|forgetDevicesOf)\(/;
    expect(where(retired)).toEqual([]);
  });
});
