import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Alert } from "../../shared/alerts/alert-rules";
import { database } from "../../db/client";
import { alertOutbox } from "../../db/schema";
import { call, report, userWithWorkspace } from "../test/factories";
import { ingest } from "../test/ingest";

/**
 * The `fuel_drop` alert rule (issue 42, docs/decisions/0050): a drop the fuel watch found opens one
 * Inbox alert with the litres lost, handed to the usual delivery (outbox, e-mail, webhook); a rule's
 * minLitres is measured with the vehicle's tank, set through the vehicle's settings.
 */
const MIN = 60_000;
const T0 = Date.now() - 3 * 3_600_000;
const HOOK = "https://hooks.example.com/fleet";
const SIPHONED = [70, 70.5, 69.8, 70.2, 70, 69.9, 62, 52, 45, 40, 40.3, 39.8, 40, 40.1, 40, 39.9, 40.2, 40];

async function vehicleWithTank(token: string, workspaceId: string, litres: number | null) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  const beacon = ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
  if (litres !== null) {
    const patched = await call(`/api/vehicles/${beacon.vehicleId}`, {
      method: "PATCH",
      token,
      json: { fuelTankLitres: litres },
    });
    expect(patched.status).toBe(200);
  }
  return beacon;
}

async function rule(token: string, body: object) {
  const res = await call("/api/alert-rules", { method: "POST", token, json: { type: "fuel_drop", ...body } });
  return { status: res.status, body: (await res.json()) as { id: string; error?: { message: string } } };
}

const siphon = (deviceId: string) =>
  ingest(SIPHONED.map((fuel, i) => report(deviceId, T0 + i * MIN, { speed: 0, ignition: false, fuel })));

async function inbox(token: string) {
  const res = await call("/api/alerts", { token });
  return ((await res.json()) as { alerts: (Omit<Alert, "at"> & { at: string })[] }).alerts;
}

describe("fuel_drop alert rules", () => {
  it("raise one alert per drop with the litres lost, delivered like every rule's", async () => {
    const a = await userWithWorkspace();
    const beacon = await vehicleWithTank(a.token, a.workspaceId, 80);
    const created = await rule(a.token, { minLitres: 20, notify: { webhookUrl: HOOK } });
    expect(created.status).toBe(201);
    await siphon(beacon.id);

    const alerts = (await inbox(a.token)).filter((x) => x.type === "fuel_drop");
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert!.ruleId).toBe(created.body.id);
    expect(alert!.vehicleId).toBe(beacon.vehicleId);
    expect(alert!.peak).toBeGreaterThan(22);
    expect(alert!.peak).toBeLessThan(26);
    expect(Date.parse(alert!.at)).toBeLessThanOrEqual(T0 + 7 * MIN);
    const outbox = await database(env.DB).select().from(alertOutbox).where(eq(alertOutbox.alertId, alert!.id)).all();
    expect(outbox).toHaveLength(1);
  });

  it("raise nothing for a drop smaller than minLitres, nor for a minimum on a vehicle with no tank set", async () => {
    const a = await userWithWorkspace();
    expect((await rule(a.token, { minLitres: 30 })).status).toBe(201);
    await siphon((await vehicleWithTank(a.token, a.workspaceId, 80)).id);
    await siphon((await vehicleWithTank(a.token, a.workspaceId, null)).id);
    expect((await inbox(a.token)).filter((x) => x.type === "fuel_drop")).toEqual([]);
  });

  it("without minLitres, raise an alert for any drop, even with no tank to say its litres", async () => {
    const a = await userWithWorkspace();
    expect((await rule(a.token, {})).status).toBe(201);
    await siphon((await vehicleWithTank(a.token, a.workspaceId, null)).id);
    const alerts = (await inbox(a.token)).filter((x) => x.type === "fuel_drop");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.peak).toBeNull();
  });

  it("refuse a minLitres that is not a positive number, naming it", async () => {
    const a = await userWithWorkspace();
    for (const minLitres of [0, -5, "ten"]) {
      const res = await call("/api/alert-rules", {
        method: "POST",
        token: a.token,
        json: { type: "fuel_drop", minLitres },
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("minLitres");
    }
  });
});
