import { describe, expect, it } from "vitest";
import { DEFAULT_FLAGS, setFlag } from "./flags";
import { call, userWithWorkspace } from "./test/factories";

const flagsOf = async (token: string) =>
  ((await (await call("/api/me", { token })).json()) as { flags: Record<string, unknown> }).flags;

describe("feature flags in api/me", () => {
  it("answers the built-in defaults when nothing is overridden", async () => {
    const { token } = await userWithWorkspace();
    expect(await flagsOf(token)).toEqual(DEFAULT_FLAGS);
  });

  it("lets a workspace override a flag for itself only, over the global value", async () => {
    const a = await userWithWorkspace("a");
    const b = await userWithWorkspace("b");
    await setFlag(a.db, "vinDecode", false, a.workspaceId);
    await setFlag(a.db, "telemetryCharts", false);
    await setFlag(a.db, "telemetryCharts", true, b.workspaceId);
    // A flag the code does not define yet can be introduced per workspace, with any JSON value.
    await setFlag(a.db, "betaReports", { maxRows: 50 }, a.workspaceId);

    expect(await flagsOf(a.token)).toMatchObject({
      vinDecode: false,
      telemetryCharts: false,
      betaReports: { maxRows: 50 },
    });
    const forB = await flagsOf(b.token);
    expect(forB).toMatchObject({ vinDecode: true, telemetryCharts: true });
    expect(forB).not.toHaveProperty("betaReports");

    // Changing an override takes effect on the next api/me.
    await setFlag(a.db, "vinDecode", true, a.workspaceId);
    expect((await flagsOf(a.token)).vinDecode).toBe(true);
  });
});
