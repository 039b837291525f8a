import { describe, expect, it, vi } from "vitest";
import type { AlarmJob } from "./alarm-job";
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

function job(name: string, due: number | null, run: AlarmJob["run"] = async () => {}, ridesAlong = false): AlarmJob {
  return { name, dueAt: () => due, run: vi.fn(run), ridesAlong };
}

describe("the workspace object's alarm", () => {
  it("is set for the earliest job that has work, and never moved later", async () => {
    const store = storage();
    await new RoomAlarm(store, [job("a", 5_000), job("b", null), job("c", 3_000)]).schedule(0);
    expect(store.at()).toBe(3_000);
    await new RoomAlarm(store, [job("late", 9_000)]).schedule(0);
    expect(store.at()).toBe(3_000);
  });

  it("runs the due jobs in order, and a job riding along whenever it has work", async () => {
    const order: string[] = [];
    const jobs = [
      job("flush", 2_000, async () => void order.push("flush"), true),
      job("due", 1_000, async () => void order.push("due")),
      job("later", 2_000, async () => void order.push("later")),
      job("idle", null, async () => void order.push("idle"), true),
    ];
    await new RoomAlarm(storage(), jobs).ring(1_000);
    expect(order).toEqual(["flush", "due"]);
  });

  it("runs every other job when one fails, and still sets the next alarm", async () => {
    const store = storage();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const after = job("after", 0);
    const failing = job("failing", 0, async () => Promise.reject(new Error("D1 unreachable")));
    await new RoomAlarm(store, [failing, after, job("next", 60_000)]).ring(0);
    expect(after.run).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith("alarm job failing failed:", expect.any(Error));
    expect(store.at()).toBe(0);
    error.mockRestore();
  });
});
