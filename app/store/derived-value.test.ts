import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientStore } from "./client-store";
import { derivedValue } from "./derived-value";

// A removal bumps its type's version whether or not the store held the key: enough to say "changed".
const touch = (store: ClientStore, key: string) => store.apply([{ op: "del", key }]);

describe("derivedValue", () => {
  afterEach(() => vi.useRealTimers());

  function counted(store: ClientStore) {
    let runs = 0;
    const read = () => derivedValue(store, ["service-schedule", "telemetry"], "due", () => ++runs);
    return read;
  }

  it("is shared by every reader of a key and worked out again when a type it reads changes", () => {
    const store = new ClientStore();
    const read = counted(store);
    expect(read()).toBe(1);
    expect(derivedValue(store, ["service-schedule", "telemetry"], "due", () => -1)).toBe(1);
    touch(store, "vehicle/v1"); // a type it does not read
    expect(read()).toBe(1);
    touch(store, "service-schedule/s1");
    expect(read()).toBe(2);
    // another store has its own values
    expect(counted(new ClientStore())()).toBe(1);
  });

  it("works positions in at most once a minute, and follows the clock every ten minutes", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 26, 5, 0));
    const store = new ClientStore();
    const read = counted(store);
    expect(read()).toBe(1);
    touch(store, "telemetry/v1");
    expect(read()).toBe(1); // within the minute: kept
    vi.advanceTimersByTime(61_000);
    expect(read()).toBe(2); // a minute on, the changed positions are worked in
    vi.advanceTimersByTime(9 * 60_000);
    expect(read()).toBe(2); // nothing changed: kept
    vi.advanceTimersByTime(60_000);
    expect(read()).toBe(3); // ten minutes on: a due date may have passed
  });
});
