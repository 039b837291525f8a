import { describe, expect, it } from "vitest";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { NO_CUSTOMER_MESSAGES } from "../../shared/jobs/customer-messages";

/** The rest of the answer: customers told nothing (docs/decisions/0085), no SMS provider here. */
const untold = { customerMessages: NO_CUSTOMER_MESSAGES, customerSms: false, workOrderLinesRequired: false };

/** A workspace's hour cycle (issue 52, docs/decisions/0079), beside its zone and units in Preferences. */
const prefs = async (token: string) =>
  (await (await call("/api/workspace/preferences", { token })).json()) as WorkspacePreferences;
const patch = (token: string, json: unknown) => call("/api/workspace/preferences", { method: "PATCH", token, json });

describe("workspace hour cycle", () => {
  it("is the zone's country's until chosen, then stays chosen whatever the zone", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    expect((await prefs(a.token)).hourCycle).toBe("h23");
    await patch(a.token, { timeZone: "America/Chicago" });
    expect((await prefs(a.token)).hourCycle).toBe("h12");
    const res = await patch(a.token, { hourCycle: "h23" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ timeZone: "America/Chicago", units: "us", hourCycle: "h23", ...untold });
    await patch(a.token, { timeZone: "America/Denver" });
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await prefs(viewer.token)).hourCycle).toBe("h23");
    // another workspace's preference is its own
    await patch(b.token, { timeZone: "America/Los_Angeles" });
    expect((await prefs(b.token)).hourCycle).toBe("h12");
  });

  it("is set by owners and admins only; a bad value is a 400 in JSON naming the field", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    expect((await patch(member.token, { hourCycle: "h12" })).status).toBe(403);
    const admin = await memberWithRole(a.workspaceId, "admin");
    expect((await patch(admin.token, { hourCycle: "h12" })).status).toBe(200);
    for (const hourCycle of ["12", "h24", null, 12]) {
      const res = await patch(a.token, { hourCycle });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(JSON.stringify(await res.json())).toContain("hourCycle");
    }
    expect((await prefs(a.token)).hourCycle).toBe("h12");
  });
});
