import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { APIRequestContext, Page } from "@playwright/test";
import { pushRequest } from "../shared/sync/sync-requests";
import { expect } from "./fixtures";

/**
 * A fleet for the operator UI's browser tests, built only through the product's public API:
 * beacons ordered like /infleet does, positions reported like a tracker does (OsmAnd), and
 * vehicle fields changed through the same synced mutation the settings form sends.
 */
export interface Fleet {
  token: string;
  workspaceId: string;
}

export interface OrderedBeacon {
  id: string;
  vehicleId: string;
  vehicleName: string;
}

export async function orderVehicles(request: APIRequestContext, fleet: Fleet, count: number): Promise<OrderedBeacon[]> {
  const res = await request.post("/api/beacons/order", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { workspaceId: fleet.workspaceId, count },
  });
  expect(res.status()).toBe(201);
  return res.json();
}

export interface Report {
  lat: number;
  lon: number;
  /** ms since epoch; defaults to now */
  timestamp?: number;
  /** knots, as OsmAnd sends it */
  speed?: number;
  ignition?: boolean;
  fuel?: number;
  /** metres */
  odometer?: number;
}

/** One OsmAnd report from a beacon, as Traccar Client sends it. */
export async function report(request: APIRequestContext, beaconId: string, r: Report) {
  const params = new URLSearchParams({
    id: beaconId,
    lat: String(r.lat),
    lon: String(r.lon),
    timestamp: String(r.timestamp ?? Date.now()),
    speed: String(r.speed ?? 0),
  });
  if (r.ignition !== undefined) params.set("ignition", String(r.ignition));
  if (r.fuel !== undefined) params.set("fuel", String(r.fuel));
  if (r.odometer !== undefined) params.set("odometer", String(r.odometer));
  const res = await request.get(`/api/ingest/osmand?${params}`);
  expect(res.status(), await res.text()).toBe(200);
}

/** Renames (and identifies) a vehicle through the synced updateVehicle mutation, as another device would. */
export async function updateVehicle(
  request: APIRequestContext,
  fleet: Fleet,
  fields: {
    id: string;
    name: string;
    vin?: string | null;
    year?: number | null;
    make?: string | null;
    model?: string | null;
  },
) {
  const res = await request.post("/api/sync/push", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: pushRequest(
      [{ name: "updateVehicle", args: { vin: null, year: null, make: null, model: null, ...fields } }],
      { profileID: "e2e" },
    ),
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Driver and type have no screen or mutation of their own yet (docs/product.md shows them read-only): the
 * development-only endpoint the demo seeder uses sets them, stamped and poked like any write.
 */
export async function setDriverAndType(
  request: APIRequestContext,
  fleet: Fleet,
  vehicleId: string,
  driver: string | null,
  type: string | null,
) {
  const res = await request.post("/api/dev/vehicles/profile", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { vehicles: [{ id: vehicleId, driver, classification: type }] },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A per-workspace feature flag override (docs/flags.md), as an operator would set it. */
export async function setWorkspaceFlag(workspaceId: string, key: string, value: unknown) {
  const q = (v: string) => `'${v.replace(/'/g, "''")}'`;
  await localD1(
    `INSERT INTO feature_flags (key, workspace_id, value) VALUES (${q(key)}, ${q(workspaceId)}, ${q(JSON.stringify(value))}) ` +
      `ON CONFLICT DO UPDATE SET value = excluded.value;`,
  );
}

/**
 * Runs SQL on the e2e Worker's local D1 (the one scripts/e2e-server.mjs started). That D1 is a SQLite
 * file the running Worker writes too, with no busy timeout: while a test in the other browser writes,
 * this command can meet SQLITE_BUSY and change nothing, so it is run again, as a busy timeout would.
 */
export async function localD1(sql: string) {
  const port = Number(process.env.E2E_PORT ?? 8799);
  for (let attempt = 1; ; attempt++) {
    try {
      await promisify(execFile)(
        "node_modules/.bin/wrangler",
        ["d1", "execute", "DB", "--local", "--persist-to", `.wrangler/e2e-${port}`, "--command", sql],
        // Without libfaketime (a run at a chosen hour, playwright.config.ts): workerd hangs under it.
        {
          env: { ...process.env, LD_PRELOAD: "", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
        },
      );
      return;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes("SQLITE_BUSY")) throw error;
    }
  }
}

/** The map's current view, as the map container reports it after every move. */
export async function mapView(page: Page) {
  const el = page.getByTestId("fleet-map");
  const zoom = Number(await el.getAttribute("data-zoom"));
  const [lng, lat] = ((await el.getAttribute("data-center")) ?? "").split(",").map(Number);
  return { zoom, lng: lng!, lat: lat! };
}

/**
 * Where a colour is drawn on the map, found in a screenshot of what the user sees (the map is
 * WebGL: there is no element to click). Returns the centre and size of the pixels within
 * `tolerance` of `rgb`, in page coordinates, or null.
 */
export async function findColour(page: Page, rgb: [number, number, number], tolerance = 24) {
  // Only right of the floating panel (12 + 325 px), whose icons share the beacons' colours.
  const fromX = 340;
  const map = page.getByTestId("fleet-map");
  const box = (await map.boundingBox())!;
  // Toasts ("Ready to work offline" as the service worker takes over) float over the map in text of
  // the beacons' colours: they are not the map.
  const png = (await map.screenshot({ style: "[data-sonner-toaster] { visibility: hidden !important; }" })).toString(
    "base64",
  );
  const found = await page.evaluate(
    async ({ png, rgb, tolerance, fromX }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const { data } = ctx.getImageData(0, 0, img.width, img.height);
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity,
        n = 0;
      for (let y = 0; y < img.height; y++) {
        for (let x = fromX; x < img.width; x++) {
          const i = (y * img.width + x) * 4;
          if (
            Math.abs(data[i]! - rgb[0]) <= tolerance &&
            Math.abs(data[i + 1]! - rgb[1]) <= tolerance &&
            Math.abs(data[i + 2]! - rgb[2]) <= tolerance
          ) {
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
            n++;
          }
        }
      }
      return n
        ? { x: (minX + maxX) / 2, y: (minY + maxY) / 2, width: maxX - minX + 1, height: maxY - minY + 1, pixels: n }
        : null;
    },
    { png, rgb, tolerance, fromX },
  );
  return found && { ...found, x: box.x + found.x, y: box.y + found.y };
}
