import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import { emailOutbox, users, vehicles, workspaces } from "../../db/schema";
import { config } from "../env";
import commute from "../fleet/fixtures/commute";
import { ingest } from "../test/ingest";
import { parseOsmandParams } from "../../domain/devices/osmand";
import { call, userWithWorkspace } from "../test/factories";
import { duePeriod } from "./email-schedule";
import { sendDueReportEmails } from "./scheduled-email";

const db = () => database(env.DB);
const chicago = (local: string) => Date.parse(`${local}-05:00`);

async function subscribedFleet(frequency: "daily" | "weekly") {
  const a = await userWithWorkspace();
  await db()
    .update(workspaces)
    .set({ timeZone: "America/Chicago", name: "Windy Fleet" })
    .where(eq(workspaces.id, a.workspaceId));
  const order = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  const [beacon] = (await order.json()) as { id: string; vehicleId: string }[];
  await db().update(vehicles).set({ name: "Truck 7" }).where(eq(vehicles.id, beacon!.vehicleId));
  const [header, ...lines] = commute.trim().split("\n");
  const columns = header!.split(",");
  const reports = lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    return parseOsmandParams({ id: beacon!.id, timestamp: params.time!, ...params });
  });
  await ingest(reports, { now: reports.at(-1)!.time + 1000 });
  expect((await call("/api/reports/subscription", { method: "PUT", token: a.token, json: { frequency } })).status).toBe(
    200,
  );
  const { email } = (await db().select({ email: users.email }).from(users).where(eq(users.id, a.userId)).get())!;
  const outbox = async () => db().select().from(emailOutbox).where(eq(emailOutbox.to, email)).all();
  return { ...a, outbox };
}

describe("the period an e-mail covers", () => {
  it("daily: yesterday, once the workspace's morning (7:00) has come; weekly: last Monday to Sunday", () => {
    expect(duePeriod("daily", chicago("2026-10-14T07:00:00"), "America/Chicago")).toEqual({
      from: "2026-10-13",
      to: "2026-10-13",
    });
    expect(duePeriod("daily", chicago("2026-10-14T06:59:00"), "America/Chicago")).toEqual({
      from: "2026-10-12",
      to: "2026-10-12",
    });
    // 07:30 in Chicago is already the afternoon in Tokyo, and the same instant there covers its own yesterday.
    expect(duePeriod("daily", chicago("2026-10-14T07:30:00"), "Asia/Tokyo")).toEqual({
      from: "2026-10-13",
      to: "2026-10-13",
    });
    // Monday 19 October, 7:00: the week of the 12th to the 18th. Sunday evening: still the week before.
    expect(duePeriod("weekly", chicago("2026-10-19T07:00:00"), "America/Chicago")).toEqual({
      from: "2026-10-12",
      to: "2026-10-18",
    });
    expect(duePeriod("weekly", chicago("2026-10-18T20:00:00"), "America/Chicago")).toEqual({
      from: "2026-10-05",
      to: "2026-10-11",
    });
  });
});

describe("scheduled summary e-mails", () => {
  it("a daily subscriber gets yesterday's summary in the workspace's morning, once", async () => {
    const a = await subscribedFleet("daily");
    const cfg = config(env);
    await sendDueReportEmails(db(), cfg, chicago("2026-10-14T07:00:30"));
    const [mail] = await a.outbox();
    expect(mail!.subject).toBe("Daily fleet summary from Fleet Ops");
    expect(mail!.text).toContain("Windy Fleet");
    expect(mail!.text).toContain("fleet summary for 2026-10-13 (America/Chicago)");
    expect(mail!.text).toMatch(/- Truck 7: \d+\.\d mi, driving 0h \d\dm, idling 0h 0\dm, 2 trips/);
    expect(mail!.text).toContain("/reports");
    // Every later minute of the same day: nothing more.
    await sendDueReportEmails(db(), cfg, chicago("2026-10-14T07:01:30"));
    await sendDueReportEmails(db(), cfg, chicago("2026-10-14T23:59:00"));
    expect(await a.outbox()).toHaveLength(1);
    // The next morning, the next day's.
    await sendDueReportEmails(db(), cfg, chicago("2026-10-15T07:00:00"));
    expect((await a.outbox()).map((m) => m.text.split("\n")[0])).toEqual([
      "Windy Fleet: fleet summary for 2026-10-13 (America/Chicago)",
      "Windy Fleet: fleet summary for 2026-10-14 (America/Chicago)",
    ]);
  });

  it("a weekly subscriber gets last week's on Monday morning; unsubscribing stops it", async () => {
    const a = await subscribedFleet("weekly");
    const cfg = config(env);
    await sendDueReportEmails(db(), cfg, chicago("2026-10-19T07:05:00"));
    await sendDueReportEmails(db(), cfg, chicago("2026-10-20T07:05:00"));
    const mails = await a.outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("fleet summary for 2026-10-12 to 2026-10-18");
    expect(mails[0]!.text).toContain("Truck 7");
    expect(
      (await call("/api/reports/subscription", { method: "PUT", token: a.token, json: { frequency: "none" } })).status,
    ).toBe(200);
    await sendDueReportEmails(db(), cfg, chicago("2026-10-26T07:05:00"));
    expect(await a.outbox()).toHaveLength(1);
    expect(await (await call("/api/reports/subscription", { token: a.token })).json()).toEqual({ frequency: "none" });
  });

  it("a subscription to an unknown frequency is a 400", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/reports/subscription", {
      method: "PUT",
      token: a.token,
      json: { frequency: "hourly" },
    });
    expect(res.status).toBe(400);
  });
});
