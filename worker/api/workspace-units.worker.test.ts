import { describe, expect, it } from "vitest";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { NO_CUSTOMER_MESSAGES } from "../../shared/jobs/customer-messages";

/** The rest of the answer: customers told nothing (docs/decisions/0085), no SMS provider here. */
const untold = { customerMessages: NO_CUSTOMER_MESSAGES, customerSms: false, workOrderLinesRequired: false };

/** A workspace's units (issue 42, docs/decisions/0060), beside its time zone in Preferences. */
const prefs = async (token: string) =>
  (await (await call("/api/workspace/preferences", { token })).json()) as WorkspacePreferences;
const patch = (token: string, json: unknown) => call("/api/workspace/preferences", { method: "PATCH", token, json });

describe("workspace units", () => {
  it("are US until an owner sets metric, which keeps the time zone and is the workspace's alone", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    expect(await prefs(a.token)).toEqual({ timeZone: "UTC", units: "us", hourCycle: "h23", ...untold });
    await patch(a.token, { timeZone: "Europe/Berlin" });
    const res = await patch(a.token, { units: "metric" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ timeZone: "Europe/Berlin", units: "metric", hourCycle: "h23", ...untold });
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await prefs(viewer.token)).units).toBe("metric");
    expect((await prefs(b.token)).units).toBe("us");
  });

  it("are set by owners and admins only, and a bad value is a 400 naming the field", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    expect((await patch(member.token, { units: "metric" })).status).toBe(403);
    for (const [body, field] of [
      [{ units: "imperial" }, "units"],
      [{}, "timeZone"],
    ] as const) {
      const res = await patch(a.token, body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
    expect((await prefs(a.token)).units).toBe("us");
  });
});
