import { describe, expect, it } from "vitest";
import type { MeResponse } from "../../shared/account/session";
import { workspacesLost } from "./session";

const me = (viewer: string, workspaces: string[], current: string | null = workspaces[0] ?? null): MeResponse => ({
  viewer: { id: viewer, email: `${viewer}@example.com` },
  workspace: current ? { id: current, name: current } : null,
  workspaces: workspaces.map((id) => ({ id, name: id })),
  role: current ? "owner" : null,
  flags: {},
});

describe("workspaces whose local store goes after a session check", () => {
  it("are the ones the viewer no longer belongs to, the current one included", () => {
    expect(workspacesLost(me("v", ["a", "b", "c"], "b"), me("v", ["a"], null))).toEqual(["b", "c"]);
    expect(workspacesLost(me("v", ["a"]), me("v", ["a", "d"]))).toEqual([]);
  });

  it("are none when the token now belongs to someone else (their stores are not this viewer's)", () => {
    expect(workspacesLost(me("v", ["a"]), me("w", []))).toEqual([]);
  });
});
