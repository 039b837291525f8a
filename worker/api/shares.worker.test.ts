import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { vehicleShares } from "../../db/schema";
import type { CreatedShare, ShareList, SharedVehicle } from "../../shared/fleet/shares";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { d1Meter } from "../../db/d1-meter";
import { ShareViews } from "../../party/room/share-views";
import { sha256Hex } from "../lib/crypto";
import { LINK_OPEN_LIMIT as SHARE_OPEN_LIMIT } from "../lib/link-openings";

/** Live-share links: who makes them, what the public read shows, and when it stops. */
type ErrorBody = { error: { code: string; message: string } };
const fromIp = () => ({
  "CF-Connecting-IP": `10.31.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function vehicleWithBeacon() {
  const a = await userWithWorkspace();
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  const [beacon] = (await res.json()) as { id: string; vehicleId: string }[];
  return { ...a, deviceId: beacon!.id, vehicleId: beacon!.vehicleId };
}

async function share(token: string, vehicleId: string, expiresInMinutes = 60) {
  const res = await call(`/api/vehicles/${vehicleId}/shares`, { method: "POST", token, json: { expiresInMinutes } });
  expect(res.status).toBe(201);
  return (await res.json()) as CreatedShare;
}

const open = (url: string) => call(new URL(url).pathname.replace(/^\/share\//, "/api/share/"), { headers: fromIp() });
const report = (id: string, lat: number, lon: number, time: number, knots = 20) =>
  call(
    `/api/ingest/osmand?${new URLSearchParams({ id, lat: String(lat), lon: String(lon), timestamp: String(time), speed: String(knots) })}`,
    { headers: fromIp() },
  );

describe("making and listing share links", () => {
  it("answers 201 with the link's URL and expiry, lists it, keeps only the token's hash", async () => {
    const a = await vehicleWithBeacon();
    const before = Date.now();
    const created = await share(a.token, a.vehicleId, 30);
    expect(created.url).toMatch(/^http:\/\/localhost:8787\/share\/[A-Za-z0-9_-]{40,}$/);
    expect(created.expiresAt).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(created.expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    const token = created.url.split("/").at(-1)!;
    const row = await database(env.DB).select().from(vehicleShares).where(eq(vehicleShares.id, created.id)).get();
    expect(Object.values(row!)).not.toContain(token);
    const list = (await (await call(`/api/vehicles/${a.vehicleId}/shares`, { token: a.token })).json()) as ShareList;
    expect(list.shares).toEqual([
      {
        id: created.id,
        createdAt: expect.any(Number),
        expiresAt: created.expiresAt,
        // who made it (issue 39)
        createdBy: a.userId,
        createdByEmail: expect.stringContaining("@example.com"),
      },
    ]);
    expect(JSON.stringify(list)).not.toContain(token);
  });

  it("viewers see links but cannot make or end them (403); members can", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect(
      (
        await call(`/api/vehicles/${a.vehicleId}/shares`, {
          method: "POST",
          token: viewer.token,
          json: { expiresInMinutes: 60 },
        })
      ).status,
    ).toBe(403);
    expect((await call(`/api/shares/${created.id}`, { method: "DELETE", token: viewer.token })).status).toBe(403);
    expect((await call(`/api/vehicles/${a.vehicleId}/shares`, { token: viewer.token })).status).toBe(200);
    const member = await memberWithRole(a.workspaceId, "member");
    await share(member.token, a.vehicleId);
  });

  it("another workspace's vehicle or link is 404", async () => {
    const a = await vehicleWithBeacon();
    const b = await vehicleWithBeacon();
    const theirs = await share(b.token, b.vehicleId);
    expect(
      (
        await call(`/api/vehicles/${b.vehicleId}/shares`, {
          method: "POST",
          token: a.token,
          json: { expiresInMinutes: 60 },
        })
      ).status,
    ).toBe(404);
    expect((await call(`/api/vehicles/${b.vehicleId}/shares`, { token: a.token })).status).toBe(404);
    expect((await call(`/api/shares/${theirs.id}`, { method: "DELETE", token: a.token })).status).toBe(404);
    expect((await open(theirs.url)).status).toBe(200);
  });

  it("refuses an expiry outside 5 minutes to 7 days with 400", async () => {
    const a = await vehicleWithBeacon();
    for (const json of [
      { expiresInMinutes: 4 },
      { expiresInMinutes: 10_081 },
      { expiresInMinutes: "60" },
      { expiresInMinutes: 7.5 },
      {},
    ]) {
      const res = await call(`/api/vehicles/${a.vehicleId}/shares`, { method: "POST", token: a.token, json });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.code).toBe("invalid_input");
    }
  });
});

describe("the public read", () => {
  it("answers the vehicle's name and latest position only, following new reports, without a session", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId);
    let res = await open(created.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Robots-Tag")).toContain("noindex");
    expect(await res.json()).toEqual({
      vehicle: { name: expect.any(String) },
      position: null,
      expiresAt: created.expiresAt,
    });

    const t = Date.now() - 20_000;
    expect((await report(a.deviceId, 41.88, -87.63, t)).status).toBe(200);
    res = await open(created.url);
    const first = (await res.json()) as SharedVehicle;
    expect(first.position).toEqual({ lat: 41.88, lng: -87.63, at: t, speedMph: 23 });
    expect(Object.keys(first).sort()).toEqual(["expiresAt", "position", "vehicle"]);
    expect(JSON.stringify(first)).not.toContain(a.deviceId);

    expect((await report(a.deviceId, 41.89, -87.62, t + 10_000)).status).toBe(200);
    expect(((await (await open(created.url)).json()) as SharedVehicle).position).toMatchObject({
      lat: 41.89,
      lng: -87.62,
      at: t + 10_000,
    });
  });

  it("an ended link is 410 on the next read; an unknown one 404", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId);
    expect((await open(created.url)).status).toBe(200);
    expect((await call(`/api/shares/${created.id}`, { method: "DELETE", token: a.token })).status).toBe(200);
    const res = await open(created.url);
    expect(res.status).toBe(410);
    expect(((await res.json()) as ErrorBody).error.code).toBe("share_ended");
    expect(
      ((await (await call(`/api/vehicles/${a.vehicleId}/shares`, { token: a.token })).json()) as ShareList).shares,
    ).toEqual([]);
    expect((await call(`/api/shares/${created.id}`, { method: "DELETE", token: a.token })).status).toBe(404);
    expect((await open("http://x/share/not-a-real-token")).status).toBe(404);
  });

  it("an open page's polls read no D1 once the link is known, follow reports live, and still end at once (ADR 0035)", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId);
    const t = Date.now() - 60_000;
    d1Meter.statements = 0;
    d1Meter.on = true;
    let polls: Response[];
    try {
      // A minute of one page's polls (every 3 s), the vehicle reporting meanwhile.
      polls = [];
      for (let i = 0; i < 20; i++) polls.push(await open(created.url));
    } finally {
      d1Meter.on = false;
    }
    expect(polls.map((r) => r.status)).toEqual(Array(20).fill(200));
    // The first poll reads which workspace the token is of, and the link: then nothing (was 20: one read per poll).
    expect(d1Meter.statements).toBeGreaterThan(0);
    expect(d1Meter.statements).toBeLessThanOrEqual(2);
    expect((await report(a.deviceId, 41.9, -87.6, t)).status).toBe(200);
    expect(((await (await open(created.url)).json()) as SharedVehicle).position).toMatchObject({
      lat: 41.9,
      lng: -87.6,
      at: t,
    });

    expect((await call(`/api/shares/${created.id}`, { method: "DELETE", token: a.token })).status).toBe(200);
    const ended = await open(created.url);
    expect(ended.status).toBe(410);
    expect(((await ended.json()) as ErrorBody).error.code).toBe("share_ended");
  });

  it("an open page learns its link expired from the clock, with no D1 read: the kept link's expiry is checked on every poll", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId, 5);
    const tokenHash = await sha256Hex(created.url.split("/").at(-1)!);
    const views = new ShareViews(
      () => database(env.DB),
      a.workspaceId,
      () => undefined,
    );
    expect(await views.answer(tokenHash, created.expiresAt - 1)).toMatchObject({ ok: true });
    d1Meter.statements = 0;
    d1Meter.on = true;
    try {
      expect(await views.answer(tokenHash, created.expiresAt)).toEqual({
        ok: false,
        status: 410,
        code: "share_expired",
        message: "This link has expired",
      });
    } finally {
      d1Meter.on = false;
    }
    expect(d1Meter.statements).toBe(0);
    // Another workspace's object knows nothing of the link.
    const b = await userWithWorkspace();
    expect(
      await new ShareViews(
        () => database(env.DB),
        b.workspaceId,
        () => undefined,
      ).answer(tokenHash),
    ).toMatchObject({ ok: false, status: 404 });
  });

  it("an expired link is 410 and leaves the list", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId, 5);
    await database(env.DB)
      .update(vehicleShares)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(vehicleShares.id, created.id));
    const res = await open(created.url);
    expect(res.status).toBe(410);
    expect(((await res.json()) as ErrorBody).error.code).toBe("share_expired");
    expect(
      ((await (await call(`/api/vehicles/${a.vehicleId}/shares`, { token: a.token })).json()) as ShareList).shares,
    ).toEqual([]);
  });

  it("is rate-limited per address: past the burst 429 with Retry-After, other addresses unaffected", async () => {
    const a = await vehicleWithBeacon();
    const created = await share(a.token, a.vehicleId);
    const path = new URL(created.url).pathname.replace(/^\/share\//, "/api/share/");
    const headers = fromIp();
    const answers = await Promise.all(
      Array.from({ length: SHARE_OPEN_LIMIT.burst + 10 }, () => call(path, { headers })),
    );
    const refused = answers.find((r) => r.status === 429);
    expect(refused).toBeDefined();
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await open(created.url)).status).toBe(200);
  });
});
