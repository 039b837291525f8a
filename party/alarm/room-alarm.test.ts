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
});
