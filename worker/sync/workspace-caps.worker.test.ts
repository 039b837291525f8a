import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_ALERT_RULES } from "../../shared/alerts/alert-rules";
import { MAX_PLACES, MAX_PLACE_VERTICES } from "../../shared/places/places";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { database } from "../../db/client";
import { chunkRows } from "../../db/chunk";
import { alertRules, places } from "../../db/schema";
import { memberWithRole, call, userWithWorkspace } from "../test/factories";
import { push } from "./push";

/** Issue 34, finding 8: per-workspace work is bounded, and a refused push changes nothing anyone sees. */
const db = database(env.DB);
const circle = { type: "Circle", center: [-87.63, 41.88], radius: 150 };

/** A ring of `n` points on a circle (never self-intersecting). */
const ring = (n: number, r = 0.01) =>
  Array.from({ length: n }, (_, i) => [
    -87.6 + r * Math.cos((2 * Math.PI * i) / n),
    41.9 + r * Math.sin((2 * Math.PI * i) / n),
  ]);

describe("caps per workspace", () => {
  it(`alert rules: at most ${MAX_ALERT_RULES}, then 409 limit_reached`, async () => {
    const a = await userWithWorkspace();
    const rows = Array.from({ length: MAX_ALERT_RULES }, () => ({
      id: crypto.randomUUID(),
      workspaceId: a.workspaceId,
      config: { type: "tow" as const },
      version: 1,
    }));
    for (const part of chunkRows(rows, 6)) await db.insert(alertRules).values(part);
    const res = await call("/api/alert-rules", { method: "POST", token: a.token, json: { type: "tow" } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error: { code: "limit_reached", message: `A workspace has at most ${MAX_ALERT_RULES} alert rules` },
    });
  });

  it(`places: at most ${MAX_PLACES.toLocaleString("en-US")}, over the API and in a pushed mutation`, async () => {
    const a = await userWithWorkspace();
    const rows = Array.from({ length: MAX_PLACES }, (_, i) => ({
      id: crypto.randomUUID(),
      workspaceId: a.workspaceId,
      name: `P${i}`,
      geometry: circle as never,
      version: 1,
    }));
    await db.batch(chunkRows(rows, 9).map((part) => db.insert(places).values(part)) as never);
    const res = await call("/api/places", {
      method: "POST",
      token: a.token,
      json: { name: "One more", geometry: circle },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: "limit_reached" } });

    const id = crypto.randomUUID();
    await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: {
        pushVersion: 1,
        clientGroupID: crypto.randomUUID(),
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [
          {
            clientID: crypto.randomUUID(),
            id: 1,
            name: "createPlace",
            args: { id, name: "Pushed", geometry: circle },
            timestamp: 1,
          },
        ],
      },
    });
    expect(await db.select().from(places).where(eq(places.id, id)).get()).toBeUndefined();
  }, 30_000);

  it(`a place: at most 9 holes and ${MAX_PLACE_VERTICES.toLocaleString("en-US")} points in all (12 rings of 500 were accepted)`, async () => {
    const a = await userWithWorkspace();
    const post = (coordinates: number[][][]) =>
      call("/api/places", {
        method: "POST",
        token: a.token,
        json: { name: "Big", geometry: { type: "Polygon", coordinates } },
      });
    const rings = Array.from({ length: 12 }, (_, i) => ring(500, 0.01 + i * 0.01));
    expect((await post(rings)).status).toBe(400);
    expect((await post(rings.slice(0, 5))).status).toBe(400); // 2,500 points
    expect((await post(rings.slice(0, 4))).status).toBe(201); // 2,000 points
  });
});

describe("a cap holds under creations at once (the cap is in the insert, not checked before it)", () => {
  const N = 6;
  const fillPlaces = async (workspaceId: string, n: number) => {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: crypto.randomUUID(),
      workspaceId,
      name: `P${i}`,
      geometry: circle as never,
      version: 1,
    }));
    await db.batch(chunkRows(rows, 9).map((part) => db.insert(places).values(part)) as never);
  };
  const livePlaceCount = async (workspaceId: string) =>
    (
      await db
        .select()
        .from(places)
        .where(and(eq(places.workspaceId, workspaceId), eq(places.deleted, false)))
        .all()
    ).length;

  it(`${N} alert rules posted at once at ${MAX_ALERT_RULES - 1}: exactly one is created, the others 409 limit_reached`, async () => {
    const a = await userWithWorkspace();
    const rows = Array.from({ length: MAX_ALERT_RULES - 1 }, () => ({
      id: crypto.randomUUID(),
      workspaceId: a.workspaceId,
      config: { type: "tow" as const },
      version: 1,
    }));
    for (const part of chunkRows(rows, 6)) await db.insert(alertRules).values(part);
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        call("/api/alert-rules", { method: "POST", token: a.token, json: { type: "tow" } }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array<number>(N - 1).fill(409)]);
    const live = await db
      .select()
      .from(alertRules)
      .where(and(eq(alertRules.workspaceId, a.workspaceId), eq(alertRules.deleted, false)))
      .all();
    expect(live).toHaveLength(MAX_ALERT_RULES);
  }, 30_000);

  it(`${N} places posted at once at ${MAX_PLACES - 1}: exactly one is created, the others 409 limit_reached`, async () => {
    const a = await userWithWorkspace();
    await fillPlaces(a.workspaceId, MAX_PLACES - 1);
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call("/api/places", { method: "POST", token: a.token, json: { name: `Race ${i}`, geometry: circle } }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, ...Array<number>(N - 1).fill(409)]);
    for (const r of answers.filter((r) => r.status === 409))
      expect(await r.json()).toMatchObject({ error: { code: "limit_reached" } });
    expect(await livePlaceCount(a.workspaceId)).toBe(MAX_PLACES);
  }, 30_000);

  it(`${N} pushes of createPlace at once (and one API call) at ${MAX_PLACES - 1}: exactly one place is created`, async () => {
    const a = await userWithWorkspace();
    await fillPlaces(a.workspaceId, MAX_PLACES - 1);
    const pushOne = (i: number) =>
      call("/api/sync/push", {
        method: "POST",
        token: a.token,
        json: {
          pushVersion: 1,
          clientGroupID: crypto.randomUUID(),
          profileID: "p",
          schemaVersion: SCHEMA_VERSION,
          mutations: [
            {
              clientID: crypto.randomUUID(),
              id: 1,
              name: "createPlace",
              args: { id: crypto.randomUUID(), name: `Pushed ${i}`, geometry: circle },
              timestamp: 1,
            },
          ],
        },
      });
    const answers = await Promise.all([
      ...Array.from({ length: N }, (_, i) => pushOne(i)),
      call("/api/places", { method: "POST", token: a.token, json: { name: "Posted", geometry: circle } }),
    ]);
    for (const r of answers) expect(r.status).toBeLessThan(500);
    expect(await livePlaceCount(a.workspaceId)).toBe(MAX_PLACES);
  }, 30_000);
});

describe("a refused push", () => {
  it("of 50 mutations a viewer may not make (or unknown ones) writes nothing and pokes nobody: push reports no write", async () => {
    const a = await userWithWorkspace();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const clientID = crypto.randomUUID();
    const mutations = Array.from({ length: 50 }, (_, i) => ({
      clientID,
      id: i + 1,
      name: i % 2 ? "createPlace" : "noSuchMutation",
      args: { id: crypto.randomUUID(), name: "X", geometry: circle },
      timestamp: 1,
    }));
    const request = {
      pushVersion: 1,
      clientGroupID: crypto.randomUUID(),
      profileID: "p",
      schemaVersion: SCHEMA_VERSION,
      mutations,
    };
    const outcome = await push(
      { env, db, waitUntil: () => {} },
      { userId: viewer.userId, workspaceId: a.workspaceId, role: "viewer" } as never,
      request as never,
    );
    // `wrote` is what makes the API poke the room's sockets (worker/api/sync.ts)
    expect(outcome.wrote).toBe(false);
    expect(outcome.recorded).toBe(true);
    expect(outcome.refused).toHaveLength(25);
    expect(await db.select().from(places).where(eq(places.workspaceId, a.workspaceId)).all()).toEqual([]);
  });
});
