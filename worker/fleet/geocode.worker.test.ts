import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../app";
import { database } from "../../db/client";
import { vehicleEvents, workspaces } from "../../db/schema";
import { call, userWithWorkspace } from "../test/factories";
import { MAPBOX_REVERSE_URL } from "./geocode";

const db = () => database(env.DB);
const T0 = Date.parse("2026-11-02T08:00:00Z");

/** Mapbox's v6 reverse-geocoding answer for 2 Embarcadero Center, San Francisco (trimmed). */
const MAPBOX_ADDRESS = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      properties: {
        feature_type: "address",
        name: "2 Embarcadero Center",
        full_address: "2 Embarcadero Center, San Francisco, California 94111, United States",
        context: {
          address: { name: "2 Embarcadero Center", address_number: "2", street_name: "Embarcadero Center" },
          street: { name: "Embarcadero Center" },
          postcode: { name: "94111" },
          place: { name: "San Francisco" },
          region: { name: "California", region_code: "CA", region_code_full: "US-CA" },
          country: { name: "United States", country_code: "US" },
        },
      },
    },
  ],
};

/** Fakes Mapbox at the fetch boundary; records what the Worker asked it. */
function fakeMapbox(answer: () => Response) {
  const asked: URL[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.href.startsWith(MAPBOX_REVERSE_URL)) {
      asked.push(url);
      return answer();
    }
    return real(input, init);
  });
  return asked;
}

afterEach(() => vi.restoreAllMocks());

/** Sends a report through the real Worker with MAPBOX_TOKEN set, and waits for its background work. */
async function report(mapboxToken: string, params: Record<string, string | number>) {
  const app = createApp(async () => new Response("pages are not part of Worker tests", { status: 404 }));
  const ctx = createExecutionContext();
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const res = await app.fetch(
    new Request(`http://localhost/api/ingest/osmand?${query}`),
    { ...env, MAPBOX_TOKEN: mapboxToken },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

async function parkedBeacon() {
  const a = await userWithWorkspace();
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  const [beacon] = (await res.json()) as { id: string; vehicleId: string }[];
  return { ...a, beacon: beacon! };
}

const stopsOf = (vehicleId: string) =>
  db().select().from(vehicleEvents).where(eq(vehicleEvents.vehicleId, vehicleId)).all();
const versionOf = async (id: string) =>
  (await db().select().from(workspaces).where(eq(workspaces.id, id)).get())!.version;

describe("reverse geocoding of stops", () => {
  it("fills a new stop's address from Mapbox after the write, in a new workspace version", async () => {
    const asked = fakeMapbox(() => Response.json(MAPBOX_ADDRESS));
    const { beacon, workspaceId } = await parkedBeacon();
    const res = await report("pk.test-token", {
      id: beacon.id,
      lat: 37.7946,
      lon: -122.3944,
      timestamp: T0 / 1000,
      ignition: "false",
    });
    expect(res.status).toBe(200);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.get("latitude")).toBe("37.7946");
    expect(asked[0]!.searchParams.get("longitude")).toBe("-122.3944");
    expect(asked[0]!.searchParams.get("access_token")).toBe("pk.test-token");
    const [stop] = await stopsOf(beacon.vehicleId);
    expect(stop).toMatchObject({
      type: "STOP",
      streetNumber: "2",
      street: "Embarcadero Center",
      city: "San Francisco",
      state: "CA",
      postalCode: "94111",
    });
    // The address is its own change: clients that pulled the stop pull it again.
    expect(stop!.version).toBe(await versionOf(workspaceId));

    // The same stop going on is not looked up again.
    await report("pk.test-token", {
      id: beacon.id,
      lat: 37.79461,
      lon: -122.3944,
      timestamp: T0 / 1000 + 30,
      ignition: "false",
    });
    expect(asked).toHaveLength(1);
  });

  it("asks nobody without a token", async () => {
    const asked = fakeMapbox(() => Response.json(MAPBOX_ADDRESS));
    const { beacon } = await parkedBeacon();
    expect((await report("", { id: beacon.id, lat: 37.7946, lon: -122.3944, ignition: "false" })).status).toBe(200);
    expect(asked).toHaveLength(0);
    expect(await stopsOf(beacon.vehicleId)).toMatchObject([{ type: "STOP", street: null, city: null }]);
  });

  it("never fails or blocks ingestion when Mapbox fails", async () => {
    fakeMapbox(() => new Response("upstream down", { status: 503 }));
    const { beacon } = await parkedBeacon();
    const res = await report("pk.test-token", { id: beacon.id, lat: 37.7946, lon: -122.3944, ignition: "false" });
    expect(res.status).toBe(200);
    expect(await stopsOf(beacon.vehicleId)).toMatchObject([{ type: "STOP", street: null }]);
  });

  it("keeps the stop without an address where Mapbox knows none", async () => {
    fakeMapbox(() => Response.json({ type: "FeatureCollection", features: [] }));
    const { beacon } = await parkedBeacon();
    expect((await report("pk.test-token", { id: beacon.id, lat: 0.5, lon: -30, ignition: "false" })).status).toBe(200);
    expect(await stopsOf(beacon.vehicleId)).toMatchObject([{ type: "STOP", streetNumber: null, postalCode: null }]);
  });
});
