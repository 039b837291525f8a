import { firstPull } from "../../worker/test/sync";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { database } from "../../db/client";
import { vehicleEvents, workspaces } from "../../db/schema";
import { call, userWithWorkspace } from "../../worker/test/factories";
import { runObjectTasks } from "../../worker/test/ingest";
import { MAPBOX_REVERSE_URL } from "./reverse-geocode";
import { STOP_ADDRESS_DELAY_MS } from "./stop-address-task";
import { fetchWithEnv } from "../../worker/test/with-env";

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

/** The workspace object's alarm, once the stops it queued are due for their addresses (no cron, no waitUntil). */
const ringAlarm = (workspaceId: string) => runObjectTasks(workspaceId, Date.now() + STOP_ADDRESS_DELAY_MS);

/** Sends a report through the real Worker with MAPBOX_TOKEN set, and waits for its background work. */
async function report(mapboxToken: string, params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return fetchWithEnv(new Request(`http://localhost/api/ingest/osmand?${query}`), { MAPBOX_TOKEN: mapboxToken });
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

describe("reverse geocoding of stops, by the workspace object's alarm", () => {
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
    // The report is answered before anyone asks Mapbox: the object asks when its alarm rings.
    expect(asked).toHaveLength(0);
    await ringAlarm(workspaceId);
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
    await ringAlarm(workspaceId);
    expect(asked).toHaveLength(1);
  });

  it("asks nobody without a token", async () => {
    const asked = fakeMapbox(() => Response.json(MAPBOX_ADDRESS));
    const { beacon, workspaceId } = await parkedBeacon();
    expect((await report("", { id: beacon.id, lat: 37.7946, lon: -122.3944, ignition: "false" })).status).toBe(200);
    await ringAlarm(workspaceId);
    expect(asked).toHaveLength(0);
    expect(await stopsOf(beacon.vehicleId)).toMatchObject([{ type: "STOP", street: null, city: null }]);
  });

  it("never fails or blocks ingestion when Mapbox fails", async () => {
    const asked = fakeMapbox(() => new Response("upstream down", { status: 503 }));
    const { beacon, workspaceId } = await parkedBeacon();
    const res = await report("pk.test-token", { id: beacon.id, lat: 37.7946, lon: -122.3944, ignition: "false" });
    expect(res.status).toBe(200);
    await ringAlarm(workspaceId);
    expect(asked).toHaveLength(1);
    expect(await stopsOf(beacon.vehicleId)).toMatchObject([{ type: "STOP", street: null }]);
  });

  it("keeps the stop without an address where Mapbox knows none", async () => {
    fakeMapbox(() => Response.json({ type: "FeatureCollection", features: [] }));
    const { beacon, workspaceId } = await parkedBeacon();
    expect((await report("pk.test-token", { id: beacon.id, lat: 0.5, lon: -30, ignition: "false" })).status).toBe(200);
    await ringAlarm(workspaceId);
    expect(await stopsOf(beacon.vehicleId)).toMatchObject([{ type: "STOP", streetNumber: null, postalCode: null }]);
  });

  it("addresses only the stops of the workspace whose object runs, and the address arrives through sync", async () => {
    const asked = fakeMapbox(() => Response.json(MAPBOX_ADDRESS));
    const a = await parkedBeacon();
    const b = await parkedBeacon();
    await report("pk.test-token", {
      id: a.beacon.id,
      lat: 37.7946,
      lon: -122.3944,
      timestamp: T0 / 1000,
      ignition: "false",
    });
    await report("pk.test-token", { id: b.beacon.id, lat: 40.5, lon: -100.5, timestamp: T0 / 1000, ignition: "false" });
    await ringAlarm(a.workspaceId);
    expect(asked.map((u) => u.searchParams.get("latitude"))).toEqual(["37.7946"]);
    expect(await stopsOf(b.beacon.vehicleId)).toMatchObject([{ type: "STOP", street: null }]);
    const [stop] = await stopsOf(a.beacon.vehicleId);
    const pull = await firstPull(a.token);
    const { patch } = (await pull.json()) as { patch: { key?: string; value?: unknown }[] };
    const synced = patch.filter((p) => p.key?.includes(stop!.id));
    expect(JSON.stringify(synced)).toContain("Embarcadero Center");
    // Another workspace's object never saw that stop: running it addresses its own alone.
    await ringAlarm(b.workspaceId);
    expect(asked).toHaveLength(2);
    expect(await stopsOf(a.beacon.vehicleId)).toMatchObject([{ street: "Embarcadero Center" }]);
  });
});
