import { describe, expect, it, vi } from "vitest";
import type { AlarmTask } from "./alarm-task";
import { RoomAlarm } from "./room-alarm";

/** The Durable Object's alarm as storage keeps it. */
function storage() {
  let at: number | null = null;
  return {
    getAlarm: vi.fn(async () => at),
    setAlarm: vi.fn(async (time: number | Date) => void (at = Number(time))),
    at: () => at,
  };
}

function task(name: string, due: number | null, run: AlarmTask["run"] = async () => {}, ridesAlong = false): AlarmTask {
  return { name, dueAt: () => due, run: vi.fn(run), ridesAlong };
}

describe("the workspace object's alarm", () => {
  it("is set for the earliest task that has work, and never moved later", async () => {
    const store = storage();
    await new RoomAlarm(store, [task("a", 5_000), task("b", null), task("c", 3_000)]).schedule(0);
    expect(store.at()).toBe(3_000);
    await new RoomAlarm(store, [task("late", 9_000)]).schedule(0);
    expect(store.at()).toBe(3_000);
  });

  it("runs the due tasks in order, and a task riding along whenever it has work", async () => {
    const order: string[] = [];
    const tasks = [
      task("flush", 2_000, async () => void order.push("flush"), true),
      task("due", 1_000, async () => void order.push("due")),
      task("later", 2_000, async () => void order.push("later")),
      task("idle", null, async () => void order.push("idle"), true),
    ];
    await new RoomAlarm(storage(), tasks).ring(1_000);
    expect(order).toEqual(["flush", "due"]);
  });

  it("runs every other task when one fails, and still sets the next alarm", async () => {
    const store = storage();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const after = task("after", 0);
    const failing = task("failing", 0, async () => Promise.reject(new Error("D1 unreachable")));
    await new RoomAlarm(store, [failing, after, task("next", 60_000)]).ring(0);
    expect(after.run).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith("alarm task failing failed:", expect.any(Error));
    expect(store.at()).toBe(0);
    error.mockRestore();
  });

  it("is set on the runtime's clock when Date runs at a chosen test hour (issue 57)", async () => {
    const global = globalThis as typeof globalThis & { __realDate?: DateConstructor };
    const RealDate = Date;
    const ahead = 14 * 3_600_000;
    // As worker/test-clock.ts shifts it: the real Date kept on the global, Date.now() ahead of it.
    global.__realDate = RealDate;
    globalThis.Date = class extends RealDate {
      static override now() {
        return RealDate.now() + ahead;
      }
    } as DateConstructor;
    try {
      const store = storage();
      const flushIn10s = Date.now() + 10_000;
      await new RoomAlarm(store, [task("flush", flushIn10s)]).schedule(Date.now());
      // The runtime rings it 10 s from now on its own clock, not 14 hours later.
      expect(Math.abs(store.at()! - (RealDate.now() + 10_000))).toBeLessThan(1_000);
      // Read back, it is a time on Date's clock again: an earlier task still moves it, a later one not.
      await new RoomAlarm(store, [task("later", flushIn10s + 5_000)]).schedule(Date.now());
      expect(Math.abs(store.at()! - (RealDate.now() + 10_000))).toBeLessThan(1_000);
    } finally {
      globalThis.Date = RealDate;
      delete global.__realDate;
    }
  });
});
