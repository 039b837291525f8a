import { env } from "cloudflare:workers";
import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Renewal } from "../../shared/costs/renewals";
import { addDays, dayOf } from "../../shared/units/time-zone";
import { database } from "../../db/client";
import { emailOutbox, renewals } from "../../db/schema";
import { config } from "../env";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { announceDueRenewals } from "./renewal-notifications";

/** Renewal reminders (ADR 0049): one e-mail per manager when a due date comes near and once more when it passes, never repeated. */
const db = () => database(env.DB);
const cfg = config(env);
const DAY = 86_400_000;
const today = () => dayOf(Date.now(), "UTC");

async function fleetWithRenewal(dueInDays: number) {
  const a = await userWithWorkspace();
  const admin = await memberWithRole(a.workspaceId, "admin");
  await memberWithRole(a.workspaceId, "member");
  const name = `Truck ${crypto.randomUUID().slice(0, 6)}`;
  const vehicleId = await insertVehicle(a.workspaceId, { name });
  const res = await call("/api/renewals", {
    method: "POST",
    token: a.token,
    json: { vehicleId, kind: "registration", dueDate: addDays(today(), dueInDays), remindDaysBefore: 14 },
  });
  expect(res.status).toBe(201);
  return { ...a, admin, name, vehicleId, renewal: (await res.json()) as Renewal };
}
const mailsAbout = (name: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(like(emailOutbox.text, `${name}:%`))
    .all();

describe("renewal reminders", () => {
  it("e-mails owners and admins once when a renewal comes due soon, and once more when it is overdue", async () => {
    const f = await fleetWithRenewal(20);
    await announceDueRenewals(db(), cfg);
    expect(await mailsAbout(f.name)).toEqual([]);

    const soon = Date.now() + 7 * DAY;
    await announceDueRenewals(db(), cfg, soon);
    await announceDueRenewals(db(), cfg, soon + DAY);
    const first = await mailsAbout(f.name);
    expect(first).toHaveLength(2); // the owner and the admin, not the member
    expect(first.every((m) => m.subject === "Renewal due soon on a vehicle")).toBe(true);
    expect(first[0]!.text).toContain(`Registration is due soon (due ${f.renewal.dueDate})`);

    const late = Date.now() + 22 * DAY;
    await announceDueRenewals(db(), cfg, late);
    await announceDueRenewals(db(), cfg, late + DAY);
    const all = await mailsAbout(f.name);
    expect(all.filter((m) => m.subject === "Renewal overdue on a vehicle")).toHaveLength(2);
    expect(all).toHaveLength(4);
  });

  it("reminds afresh of the new due date once renewed, and never of a deleted renewal", async () => {
    const f = await fleetWithRenewal(3);
    await announceDueRenewals(db(), cfg);
    expect(await mailsAbout(f.name)).toHaveLength(2);
    const next = addDays(today(), 10);
    const renewed = await call(`/api/renewals/${f.renewal.id}/renew`, {
      method: "POST",
      token: f.token,
      json: { dueDate: next },
    });
    expect(renewed.status).toBe(200);
    await announceDueRenewals(db(), cfg);
    expect((await mailsAbout(f.name)).filter((m) => m.text.includes(`due ${next}`))).toHaveLength(2);

    const gone = await fleetWithRenewal(2);
    expect((await call(`/api/renewals/${gone.renewal.id}`, { method: "DELETE", token: gone.token })).status).toBe(204);
    await announceDueRenewals(db(), cfg);
    expect(await mailsAbout(gone.name)).toEqual([]);
    expect((await db().select().from(renewals).where(eq(renewals.id, gone.renewal.id)).get())?.announced).toBeNull();
  });
});
