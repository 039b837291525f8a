import { describe, expect, it } from "vitest";
import { createReloadLimiter, RELOAD_INTERVAL_MS } from "./reload-limiter";
import { outcomeOf, SyncHealth } from "./sync-health";

describe("what a sync answer says", () => {
  it("tells a refusal (error status, VersionNotSupported, ClientStateNotFound) from success, and leaves 401 to the session check", () => {
    expect(outcomeOf(200, { cookie: { order: 1 }, lastMutationIDChanges: {}, patch: [] })).toBe("ok");
    expect(outcomeOf(200, {})).toBe("ok");
    expect(outcomeOf(200, { error: "VersionNotSupported", versionType: "schema" })).toBe("refused");
    expect(outcomeOf(200, { error: "ClientStateNotFound" })).toBe("refused");
    expect(outcomeOf(500, undefined)).toBe("refused");
    expect(outcomeOf(403, undefined)).toBe("refused");
    expect(outcomeOf(401, undefined)).toBeNull();
  });

  it("notifies only when the problem changes", () => {
    const health = new SyncHealth();
    const seen: (string | null)[] = [];
    health.subscribe(() => seen.push(health.problem));
    health.record("ok");
    health.record("offline");
    health.record("offline");
    health.record("refused");
    health.record("ok");
    expect(seen).toEqual(["offline", "refused", null]);
  });
});

describe("reloads on Replicache's behalf", () => {
  function tab(start: number) {
    const storage = new Map<string, string>();
    const clock = { now: start };
    const timers: { at: number; run: () => void }[] = [];
    const reloads: number[] = [];
    const deps = {
      storage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
      },
      now: () => clock.now,
      reload: () => reloads.push(clock.now),
      schedule: (run: () => void, ms: number) => timers.push({ at: clock.now + ms, run }),
    };
    const advance = (to: number) => {
      clock.now = to;
      const due = timers.filter((t) => t.at <= to);
      timers.splice(0, timers.length, ...timers.filter((t) => t.at > to));
      for (const t of due) t.run();
    };
    return { deps, advance, reloads };
  }

  it("never reload more than once a minute, however often they are asked for", () => {
    const t = tab(1_000_000);
    // Page 1 asks twice: one reload, at once.
    const first = createReloadLimiter(t.deps);
    first();
    first();
    t.advance(1_000_000);
    expect(t.reloads).toEqual([1_000_000]);
    // Page 2 (after the reload, same tab storage) asks again 5 s later: it waits for the minute's end.
    const second = createReloadLimiter(t.deps);
    t.advance(1_005_000);
    second();
    t.advance(1_005_000 + 30_000);
    expect(t.reloads).toHaveLength(1);
    t.advance(1_000_000 + RELOAD_INTERVAL_MS);
    expect(t.reloads).toEqual([1_000_000, 1_000_000 + RELOAD_INTERVAL_MS]);
  });
});
