import { describe, expect, it } from "vitest";
import { keptFormatters } from "../../shared/units/time-zone";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";

/** Issue 34, finding 6 (instants outside 2000–2100 are a 400, never a 500) and 9 (zone names canonicalised). */
const badInstants = [
  "+275760-09-13T00:00:00Z",
  "1999-12-31T23:59:59Z",
  "2101-01-01T00:00:00Z",
  "-000001-01-01T00:00:00Z",
];

describe("instants the API takes", () => {
  it.each(badInstants)("a report from %s is a 400 JSON error", async (from) => {
    const a = await userWithWorkspace();
    for (const report of ["summary", "trips", "stops", "daily"]) {
      const res = await call(`/api/reports/${report}?from=${encodeURIComponent(from)}&to=2026-11-20`, {
        token: a.token,
      });
      expect(res.status, report).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "invalid_input", fields: { from: expect.any(Array) } } });
    }
  });

  it("a day outside the years or one that does not exist is a 400", async () => {
    const a = await userWithWorkspace();
    for (const day of ["1999-12-31", "2101-01-01", "2026-02-30", "2026-13-01"]) {
      expect((await call(`/api/reports/summary?from=${day}&to=2026-11-20`, { token: a.token })).status, day).toBe(400);
    }
    expect((await call(`/api/reports/summary?from=2026-11-19&to=2026-11-20`, { token: a.token })).status).toBe(200);
  });

  it("alerts since, a vehicle's history and beacon health refuse them too", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    for (const since of badInstants)
      expect((await call(`/api/alerts?since=${encodeURIComponent(since)}`, { token: a.token })).status, since).toBe(
        400,
      );
    expect((await call(`/api/alerts?since=2026-11-20T00:00:00Z`, { token: a.token })).status).toBe(200);
    for (const q of ["since=0", "from=8640000000000000", "from=1700000000000&to=99999999999999"]) {
      const res = await call(`/api/vehicles/${vehicleId}/history?${q}`, { token: a.token });
      expect(res.status, q).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "invalid_input" } });
    }
    expect((await call(`/api/beacons/${vehicleId}/health?since=0`, { token: a.token })).status).toBe(400);
  });
});

describe("time-zone names", () => {
  it("are stored in their canonical spelling, and spellings share one cached formatter", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/workspace/preferences", {
      method: "PATCH",
      token: a.token,
      json: { timeZone: "aMeRiCa/ChIcAgO" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ timeZone: "America/Chicago", units: "us", hourCycle: "h12" });
    const before = keptFormatters();
    for (const spelling of ["AMERICA/CHICAGO", "america/chicago", "AmErIcA/cHiCaGo", "America/CHICAGO"]) {
      expect(
        (await call("/api/workspace/preferences", { method: "PATCH", token: a.token, json: { timeZone: spelling } }))
          .status,
      ).toBe(200);
    }
    expect(keptFormatters()).toBe(before);
  });
});
