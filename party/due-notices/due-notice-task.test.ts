import { describe, expect, it, vi } from "vitest";
import { DUE_RECHECK_MS, DueNoticeTask, type DueCheck } from "./due-notice-task";

function task(check: () => Promise<DueCheck>) {
  const order: string[] = [];
  const deps = {
    workspaceId: "ws-1",
    check: vi.fn(async () => {
      order.push("check");
      return check();
    }),
    settle: vi.fn(async () => void order.push("settle")),
    announce: vi.fn(async () => void order.push("announce")),
  };
  return { task: new DueNoticeTask(deps), deps, order };
}

describe("the object's due notice task", () => {
  it("has no work until the cron's query finds some, then checks its own workspace after settling and announces", async () => {
    const { task: notices, deps, order } = task(async () => ({ announced: true, more: false }));
    expect(notices.dueAt()).toBeNull();
    notices.want(1_000);
    expect(notices.dueAt()).toBe(1_000);
    await notices.run(1_000);
    expect(deps.check).toHaveBeenCalledWith("ws-1", 1_000);
    expect(order).toEqual(["settle", "check", "announce"]);
    expect(notices.dueAt()).toBeNull();
  });

  it("tells nobody when nothing was written", async () => {
    const { task: notices, deps } = task(async () => ({ announced: false, more: false }));
    notices.want(0);
    await notices.run(0);
    expect(deps.announce).not.toHaveBeenCalled();
  });

  it("checks again a quarter hour later while a busy workspace has more, or after a check that failed", async () => {
    const busy = task(async () => ({ announced: true, more: true })).task;
    busy.want(0);
    await busy.run(0);
    expect(busy.dueAt()).toBe(DUE_RECHECK_MS);

    const failing = task(async () => Promise.reject(new Error("D1 unreachable"))).task;
    failing.want(0);
    await expect(failing.run(0)).rejects.toThrow("D1 unreachable");
    expect(failing.dueAt()).toBe(DUE_RECHECK_MS);
  });

  it("keeps the earliest wake when woken again before it ran", () => {
    const { task: notices } = task(async () => ({ announced: false, more: false }));
    notices.want(5_000);
    notices.want(9_000);
    expect(notices.dueAt()).toBe(5_000);
  });
});
