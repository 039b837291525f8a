import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ReportResponse, StopRow, SummaryRow, TripRow, DailyRow } from "../../shared/reports/reports";
import { mphToMetresPerSecond } from "../../shared/units/units";
import { database } from "../test/db";
import { vehicleDayRollups, vehicles, workspaces } from "../../db/schema";
import commute from "../fleet/fixtures/commute";
import { ingest } from "../test/ingest";
import { parseOsmandParams, type Report } from "../../domain/devices/osmand";
import { call, insertVehicle, report, userWithWorkspace } from "../test/factories";

const db = () => database(env.DB);

/** A workspace in Chicago with one beacon-tracked vehicle named `name`. */
async function chicagoFleet(name = "Truck 7, north") {
  const a = await userWithWorkspace();
  await db().update(workspaces).set({ timeZone: "America/Chicago" }).where(eq(workspaces.id, a.workspaceId));
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  const [beacon] = (await res.json()) as { id: string; vehicleId: string }[];
  await db().update(vehicles).set({ name, driver: "Ana" }).where(eq(vehicles.id, beacon!.vehicleId));
  return { ...a, beacon: beacon! };
}

/** The commute fixture as its tracker sent it, through the real parser. */
function commuteReports(deviceId: string): Report[] {
  const [header, ...lines] = commute.trim().split("\n");
  const columns = header!.split(",");
  return lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    return { ...parseOsmandParams({ id: deviceId, timestamp: params.time!, ...params }), deviceId };
  });
}

/** Stores reports the way ingestion batches them: several requests of a few reports each. */
async function ingestInBatches(reports: Report[], size = 9) {
  for (let i = 0; i < reports.length; i += size)
    await ingest(reports.slice(i, i + size), { now: reports.at(-1)!.time + 1000 });
}

async function getReport<Row>(token: string, name: string, query: string) {
  const res = await call(`/api/reports/${name}?${query}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ReportResponse<Row>;
}

describe("reports on a recorded commute, rolled up as it was ingested", () => {
  it("summary: distance is the sum of the trips' within 1 %, with trips, stops, driving and idling", async () => {
    const a = await chicagoFleet();
    await ingestInBatches(commuteReports(a.beacon.id));
    const summary = await getReport<SummaryRow>(a.token, "summary", "from=2026-10-13&to=2026-10-13");
    const trips = await getReport<TripRow>(a.token, "trips", "from=2026-10-13&to=2026-10-13");
    const [row] = summary.rows;
    expect(row).toMatchObject({ vehicleId: a.beacon.vehicleId, vehicleName: "Truck 7, north", trips: 2, stops: 3 });
    expect(row!.distanceMiles).toBeGreaterThan(3);
    const tripMiles = trips.rows.reduce((sum, t) => sum + t.distanceMiles, 0);
    expect(Math.abs(row!.distanceMiles - tripMiles) / row!.distanceMiles).toBeLessThan(0.01);
    expect(row!.drivingSeconds).toBeGreaterThan(8 * 60);
    expect(row!.idlingSeconds).toBeGreaterThanOrEqual(60);
    expect(row!.maxSpeedMph).toBeGreaterThan(row!.averageSpeedMph);
    expect(summary.total).toMatchObject({ vehicleName: "Fleet total", trips: 2, distanceMiles: row!.distanceMiles });
    expect(summary.timeZone).toBe("America/Chicago");
  });

  it("trips and stops carry local times with the offset, the driver, and the stops' places", async () => {
    const a = await chicagoFleet();
    await ingestInBatches(commuteReports(a.beacon.id));
    const trips = await getReport<TripRow>(a.token, "trips", "from=2026-10-13&to=2026-10-13");
    expect(trips.rows).toHaveLength(2);
    // The track starts at 12:50 UTC: 07:50 in Chicago (CDT, -05:00); the first trip a little after 8.
    expect(trips.rows[0]!.start).toMatch(/^2026-10-13T08:0\d:\d\d-05:00$/);
    expect(trips.rows[0]).toMatchObject({ driver: "Ana", type: "TRANSIT", inProgress: false });
    expect(trips.rows[0]!.endLatitude).toBeCloseTo(41.88, 1);
    const stops = await getReport<StopRow>(a.token, "stops", "from=2026-10-13&to=2026-10-13");
    expect(stops.rows).toHaveLength(3);
    expect(stops.rows[0]!.start).toBe("2026-10-13T07:50:00-05:00");
    // Parked at work, still there: the stop runs on, flagged as going on.
    expect(stops.rows[2]!.inProgress).toBe(true);
  });

  it("a day before or after the drive is empty; the Daily report has a row per day, zero where it did not drive", async () => {
    const a = await chicagoFleet();
    await ingestInBatches(commuteReports(a.beacon.id));
    const daily = await getReport<DailyRow>(a.token, "daily", "from=2026-10-12&to=2026-10-14");
    expect(daily.rows.map((r) => [r.day, r.trips])).toEqual([
      ["2026-10-12", 0],
      ["2026-10-13", 2],
      ["2026-10-14", 0],
    ]);
    expect((await getReport<TripRow>(a.token, "trips", "from=2026-10-14&to=2026-10-20")).rows).toEqual([]);
  });
});

describe("figures that do not add up across vehicles", () => {
  it("the Summary's fleet total has no fuel used: two tanks at 45 % are not a fleet at 90 %", async () => {
    const a = await chicagoFleet();
    const other = await insertVehicle(a.workspaceId, { name: "Van 2" });
    const day = (vehicleId: string, fuelUsedPercent: number) =>
      db().insert(vehicleDayRollups).values({
        workspaceId: a.workspaceId,
        vehicleId,
        day: "2026-10-13",
        distanceMetres: 16_093.44,
        fuelUsedPercent,
      });
    await day(a.beacon.vehicleId, 45.3);
    await day(other, 45.4);
    const summary = await getReport<SummaryRow>(a.token, "summary", "from=2026-10-13&to=2026-10-13");
    expect(summary.rows.map((r) => r.fuelUsedPercent).sort()).toEqual([45.3, 45.4]);
    expect(summary.total).toMatchObject({ distanceMiles: 20, fuelUsedPercent: null });
  });
});

describe("the range's edges", () => {
  /** A drive east at 30 mph from `from` for `minutes`, a report every 10 s, ignition on. */
  const drive = (deviceId: string, from: number, minutes: number) =>
    Array.from({ length: minutes * 6 + 1 }, (_, i) =>
      report(deviceId, from + i * 10_000, {
        latitude: 41.9,
        longitude: -87.6 + (i * 134) / 83_000,
        speed: mphToMetresPerSecond(30),
        ignition: true,
      }),
    );

  it("a trip still going at the end of the range is reported up to its end, and not lost when no stop follows", async () => {
    const a = await chicagoFleet();
    // 23:40 to 00:20 local (05:40 to 06:20 UTC in January): the trip never stops.
    const from = Date.parse("2026-01-15T05:40:00Z");
    await ingestInBatches(drive(a.beacon.id, from, 40));
    const first = await getReport<TripRow>(a.token, "trips", "from=2026-01-14&to=2026-01-14");
    expect(first.rows).toHaveLength(1);
    expect(first.rows[0]).toMatchObject({
      end: "2026-01-15T00:00:00-06:00",
      inProgress: true,
      durationSeconds: 20 * 60,
    });
    const both = await getReport<TripRow>(a.token, "trips", "from=2026-01-14&to=2026-01-15");
    expect(both.rows).toHaveLength(1);
    expect(both.rows[0]).toMatchObject({
      start: "2026-01-14T23:40:00-06:00",
      end: "2026-01-15T00:20:00-06:00",
      inProgress: true,
    });
    // The two days' summaries split the drive at midnight and add up to the whole.
    const day1 = (await getReport<SummaryRow>(a.token, "summary", "from=2026-01-14&to=2026-01-14")).rows[0]!;
    const day2 = (await getReport<SummaryRow>(a.token, "summary", "from=2026-01-15&to=2026-01-15")).rows[0]!;
    expect(day1.drivingSeconds).toBe(1200);
    expect(day2.drivingSeconds).toBe(1200);
    expect(day1.distanceMiles + day2.distanceMiles).toBeCloseTo(both.rows[0]!.distanceMiles, 1);
    expect(first.rows[0]!.distanceMiles).toBeCloseTo(day1.distanceMiles, 1);
  });
});

describe("a day that crosses a daylight-saving change", () => {
  it("the fall-back Sunday in Chicago holds 25 hours: a vehicle idling through it shows 25 h of idling that day", async () => {
    const a = await chicagoFleet();
    const from = Date.parse("2026-10-31T22:00:00-05:00");
    const to = Date.parse("2026-11-02T01:00:00-06:00");
    const reports = [];
    for (let t = from; t <= to; t += 5 * 60_000)
      reports.push(report(a.beacon.id, t, { latitude: 41.9, longitude: -87.6, speed: 0, ignition: true }));
    await ingestInBatches(reports, 60);
    const daily = await getReport<DailyRow>(a.token, "daily", "from=2026-10-31&to=2026-11-02");
    expect(daily.rows.map((r) => [r.day, r.idlingSeconds])).toEqual([
      ["2026-10-31", 2 * 3600],
      ["2026-11-01", 25 * 3600],
      ["2026-11-02", 3600],
    ]);
    // The stop that began on the 31st runs through the 1st, its times in the offset of each end.
    const stops = await getReport<StopRow>(a.token, "stops", "from=2026-11-01&to=2026-11-01");
    expect(stops.rows[0]).toMatchObject({
      start: "2026-11-01T00:00:00-05:00",
      end: "2026-11-02T00:00:00-06:00",
      durationSeconds: 25 * 3600,
      ignition: "on",
    });
  });
});

describe("CSV", () => {
  it("RFC 4180: one header row with units in the names, CRLF, quoted fields, times with the offset", async () => {
    const a = await chicagoFleet('Truck "7", north');
    await ingestInBatches(commuteReports(a.beacon.id));
    const res = await call("/api/reports/trips?from=2026-10-13&to=2026-10-13&format=csv", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(res.headers.get("Content-Disposition")).toContain('filename="trips-2026-10-13-to-2026-10-13.csv"');
    const text = await res.text();
    const lines = text.split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines[0]).toBe(
      "vehicleId,vehicleName,driver,type,start,end,startAddress,startLatitude,startLongitude,endAddress,endLatitude,endLongitude,distanceMiles,durationSeconds,maxSpeedMph,averageSpeedMph,inProgress",
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`${a.beacon.vehicleId},"Truck ""7"", north",Ana,TRANSIT,2026-10-13T08:`);
    expect(lines[1]).toMatch(/-05:00,2026-10-13T08:\d\d:\d\d-05:00,/);
    const summary = await (
      await call("/api/reports/summary?from=2026-10-13&to=2026-10-13&format=csv", { token: a.token })
    ).text();
    expect(summary.split("\r\n")[0]).toBe(
      "vehicleId,vehicleName,distanceMiles,drivingSeconds,idlingSeconds,trips,stops,maxSpeedMph,averageSpeedMph,speedingEpisodes,fuelUsedPercent",
    );
  });

  it("a cell a spreadsheet would run as a formula is shown as text", async () => {
    const a = await chicagoFleet('=HYPERLINK("http://x")');
    const text = await (
      await call("/api/reports/summary?from=2026-10-13&to=2026-10-13&format=csv", { token: a.token })
    ).text();
    expect(text.split("\r\n")[1]).toContain(`,"'=HYPERLINK(""http://x"")",0,`);
  });
});

describe("bad input and other workspaces", () => {
  const expectError = async (res: Response, status: number, message: RegExp) => {
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toMatch(message);
  };

  it("refuses ranges over 92 days, from after to, unknown reports, bad dates, no session", async () => {
    const a = await chicagoFleet();
    await expectError(
      await call("/api/reports/summary?from=2026-01-01&to=2026-04-03", { token: a.token }),
      400,
      /at most 92 days; this range has 93/,
    );
    await expectError(
      await call("/api/reports/summary?from=2026-02-02&to=2026-02-01", { token: a.token }),
      400,
      /`from` is after `to`/,
    );
    await expectError(
      await call("/api/reports/speeding?from=2026-02-01&to=2026-02-01", { token: a.token }),
      404,
      /No report "speeding"/,
    );
    await expectError(
      await call("/api/reports/trips?from=yesterday&to=2026-02-01", { token: a.token }),
      400,
      /from: Use a date/,
    );
    await expectError(await call("/api/reports/trips?to=2026-02-01", { token: a.token }), 400, /from/);
    await expectError(
      await call("/api/reports/trips?from=2026-02-01&to=2026-02-01&format=xlsx", { token: a.token }),
      400,
      /format/,
    );
    expect((await call("/api/reports/summary?from=2026-01-01&to=2026-01-01")).status).toBe(401);
  });

  it("92 days is fine", async () => {
    const a = await chicagoFleet();
    expect((await call("/api/reports/summary?from=2026-01-01&to=2026-04-02", { token: a.token })).status).toBe(200);
  });

  it("another workspace's vehicle is a 404, and its rollups never show in my reports", async () => {
    const mine = await chicagoFleet();
    const theirs = await chicagoFleet();
    await ingestInBatches(commuteReports(theirs.beacon.id));
    await expectError(
      await call(`/api/reports/trips?from=2026-10-13&to=2026-10-13&vehicleId=${theirs.beacon.vehicleId}`, {
        token: mine.token,
      }),
      404,
      /No vehicle .* in this workspace/,
    );
    const summary = await getReport<SummaryRow>(mine.token, "summary", "from=2026-10-13&to=2026-10-13");
    expect(summary.rows.map((r) => r.vehicleId)).toEqual([mine.beacon.vehicleId]);
    expect(summary.total!.distanceMiles).toBe(0);
    expect((await getReport<TripRow>(mine.token, "trips", "from=2026-10-13&to=2026-10-13")).rows).toEqual([]);
    expect((await getReport<StopRow>(mine.token, "stops", "from=2026-10-13&to=2026-10-13")).rows).toEqual([]);
  });
});

describe("the workspace's time zone", () => {
  it("is UTC by default, the creator's browser's when sent at creation, and changed in Preferences with a known name only", async () => {
    const a = await userWithWorkspace();
    const prefs = () => call("/api/workspace/preferences", { token: a.token });
    expect(await (await prefs()).json()).toMatchObject({ timeZone: "UTC", units: "us", hourCycle: "h23" });
    const bad = await call("/api/workspace/preferences", {
      method: "PATCH",
      token: a.token,
      json: { timeZone: "Mars/Olympus" },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: Record<string, string[]> } }).error.fields.timeZone).toBeDefined();
    const ok = await call("/api/workspace/preferences", {
      method: "PATCH",
      token: a.token,
      json: { timeZone: "Europe/Berlin" },
    });
    expect(ok.status).toBe(200);
    expect(await (await prefs()).json()).toMatchObject({ timeZone: "Europe/Berlin", units: "us", hourCycle: "h23" });

    const created = await call("/api/workspaces", {
      method: "POST",
      token: a.token,
      json: { name: "Tokyo", timeZone: "Asia/Tokyo" },
    });
    const { id } = (await created.json()) as { id: string };
    expect((await db().select().from(workspaces).where(eq(workspaces.id, id)).get())!.timeZone).toBe("Asia/Tokyo");
  });
});

describe("the development bulk seed behind the benchmark", () => {
  it("folds a working day per vehicle through the rollup and stores it for each day; the summary adds them up", async () => {
    const a = await chicagoFleet();
    const other = await chicagoFleet();
    const res = await call("/api/dev/reports/rollups", {
      method: "POST",
      token: a.token,
      json: {
        vehicleIds: [a.beacon.vehicleId, other.beacon.vehicleId],
        firstDay: "2026-10-01",
        days: 3,
        hours: 2,
        everySeconds: 30,
      },
    });
    // Only the session's workspace's vehicles.
    expect(await res.json()).toEqual({ vehicles: 1, rows: 3 });
    const day = (await getReport<SummaryRow>(a.token, "summary", "from=2026-10-01&to=2026-10-01")).rows[0]!;
    const three = (await getReport<SummaryRow>(a.token, "summary", "from=2026-10-01&to=2026-10-03")).rows[0]!;
    // Two hours: two legs of 50 minutes with a 10-minute stop after each.
    expect(day.drivingSeconds / 60).toBeGreaterThan(95);
    expect(day.drivingSeconds / 60).toBeLessThan(105);
    expect(day.trips).toBe(2);
    expect(three.drivingSeconds).toBe(day.drivingSeconds * 3);
    expect(three.distanceMiles).toBeCloseTo(day.distanceMiles * 3, 1);
    expect(
      (await getReport<SummaryRow>(other.token, "summary", "from=2026-10-01&to=2026-10-03")).rows[0]!.distanceMiles,
    ).toBe(0);
  });
});
