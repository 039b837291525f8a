import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { database } from "../../db/client";
import { memberships } from "../../db/schema";
import { call, userWithWorkspace } from "../test/factories";
import { firstPull } from "../test/sync";

const square = {
  type: "Polygon",
  coordinates: [
    [
      [-87.64, 41.87],
      [-87.62, 41.87],
      [-87.62, 41.89],
      [-87.64, 41.89],
      [-87.64, 41.87],
    ],
  ],
};
const depot = { name: "Depot", geometry: { type: "Circle", center: [-87.63, 41.88], radius: 150 } };

async function create(token: string, json: unknown) {
  return call("/api/places", { method: "POST", token, json });
}

async function pullKeys(token: string) {
  const res = await firstPull(token);
  expect(res.status).toBe(200);
  return ((await res.json()) as { patch: { op: string; key: string; value: unknown }[] }).patch.filter(
    (p) => p.op === "put",
  );
}

describe("places API", () => {
  it("creates, lists, renames, reshapes and deletes a place", async () => {
    const a = await userWithWorkspace();
    const created = await create(a.token, depot);
    expect(created.status).toBe(201);
    const place = (await created.json()) as { id: string; name: string; geometry: unknown };
    expect(place).toMatchObject(depot);

    const renamed = await call(`/api/places/${place.id}`, {
      method: "PATCH",
      token: a.token,
      json: { name: "North depot", geometry: square },
    });
    expect(renamed.status).toBe(200);
    const list = (await (await call("/api/places", { token: a.token })).json()) as {
      places: { name: string; geometry: { type: string; coordinates?: unknown[][] } }[];
    };
    expect(list.places.map((p) => p.name)).toEqual(["North depot"]);
    // the closing point is stored once (rings are kept open)
    expect(list.places[0]!.geometry.coordinates![0]).toHaveLength(4);

    expect((await call(`/api/places/${place.id}`, { method: "DELETE", token: a.token })).status).toBe(204);
    expect(((await (await call("/api/places", { token: a.token })).json()) as { places: unknown[] }).places).toEqual(
      [],
    );
    expect((await call(`/api/places/${place.id}`, { method: "DELETE", token: a.token })).status).toBe(404);
  });

  it("refuses bad shapes with 400 and a clear message", async () => {
    const a = await userWithWorkspace();
    const cases: [unknown, RegExp][] = [
      [
        {
          name: "x",
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
        /at least 3 points/,
      ],
      [
        {
          name: "x",
          geometry: {
            type: "Polygon",
            coordinates: [
              [
                [0, 0],
                [1, 1],
                [1, 0],
                [0, 1],
              ],
            ],
          },
        },
        /cross/,
      ],
      [{ name: "x", geometry: { type: "Circle", center: [0, 0], radius: 0 } }, /more than 0/],
      [{ name: "x", geometry: { type: "Circle", center: [0, 0], radius: 100_001 } }, /100 km/],
      [{ name: "x", geometry: { type: "Circle", center: [0, 91], radius: 10 } }, /Latitude/],
      [{ name: "x", geometry: { type: "Line" } }, /Polygon or a Circle/],
      [{ name: "", geometry: depot.geometry }, /Required/],
    ];
    for (const [json, message] of cases) {
      const res = await create(a.token, json);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toMatch(message);
    }
  });

  it("keeps workspaces apart: another workspace's place is a 404 and never listed or synced", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const place = (await (await create(a.token, depot)).json()) as { id: string };
    expect(
      (await call(`/api/places/${place.id}`, { method: "PATCH", token: b.token, json: { name: "Mine" } })).status,
    ).toBe(404);
    expect((await call(`/api/places/${place.id}`, { method: "DELETE", token: b.token })).status).toBe(404);
    expect(((await (await call("/api/places", { token: b.token })).json()) as { places: unknown[] }).places).toEqual(
      [],
    );
    expect((await pullKeys(b.token)).some((p) => p.key.startsWith("place/"))).toBe(false);
  });

  it("lets a viewer read but not change", async () => {
    const a = await userWithWorkspace();
    await create(a.token, depot);
    await database(env.DB)
      .update(memberships)
      .set({ role: "viewer" })
      .where(and(eq(memberships.userId, a.userId), eq(memberships.workspaceId, a.workspaceId)));
    expect((await create(a.token, depot)).status).toBe(403);
    expect(
      ((await (await call("/api/places", { token: a.token })).json()) as { places: unknown[] }).places,
    ).toHaveLength(1);
  });

  it("needs a session", async () => {
    expect((await call("/api/places")).status).toBe(401);
  });
});

describe("places through sync", () => {
  it("syncs places to the workspace's browsers and applies a browser's createPlace and deletePlace", async () => {
    const a = await userWithWorkspace();
    const viaRest = (await (await create(a.token, depot)).json()) as { id: string };
    const puts = await pullKeys(a.token);
    expect(puts.find((p) => p.key === `place/${viaRest.id}`)?.value).toEqual({ n: "Depot", g: depot.geometry });

    const id = crypto.randomUUID();
    const clientGroupID = crypto.randomUUID();
    const mutation = (n: number, name: string, args: unknown) => ({ clientID: "c1", id: n, name, args, timestamp: 1 });
    const pushed = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: {
        pushVersion: 1,
        clientGroupID,
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [
          mutation(1, "createPlace", { id, name: "Yard", geometry: square }),
          mutation(2, "updatePlace", { id, name: "Back yard" }),
          mutation(3, "deletePlace", { id: viaRest.id }),
        ],
      },
    });
    expect(pushed.status).toBe(200);
    const list = (await (await call("/api/places", { token: a.token })).json()) as {
      places: { id: string; name: string }[];
    };
    expect(list.places).toEqual([expect.objectContaining({ id, name: "Back yard" })]);
  });

  it("refuses a pushed place whose id another workspace uses", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const taken = (await (await create(a.token, depot)).json()) as { id: string };
    await call("/api/sync/push", {
      method: "POST",
      token: b.token,
      json: {
        pushVersion: 1,
        clientGroupID: crypto.randomUUID(),
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
        mutations: [
          {
            clientID: "c2",
            id: 1,
            name: "createPlace",
            args: { id: taken.id, name: "Stolen", geometry: square },
            timestamp: 1,
          },
        ],
      },
    });
    const list = (await (await call("/api/places", { token: a.token })).json()) as { places: { name: string }[] };
    expect(list.places.map((p) => p.name)).toEqual(["Depot"]);
  });
});
