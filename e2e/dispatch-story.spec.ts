import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { DESKTOP, PHONE } from "./phone-helpers";
import { orderVehicles, report, type Fleet } from "./ui-helpers";

/**
 * A stop tells its whole story on the dispatch page (issue 53): the job detail opened from the
 * stop's row, its marker and its timeline block, with the times the fleet's reports stamped and the
 * proof the driver left; the map's stylesheet, markers and vehicles; the picked point. Through the
 * real Worker: the stamps come from reports a tracker sends, the proof through the public API.
 */

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const MISSING_CSS = "missing CSS declarations for Mapbox GL JS";
const STOP = { latitude: 41.8801, longitude: -87.63 };
const MIN = 60_000;

type Story = { vanId: string; vanName: string; beaconId: string; quote: string; sofa: string };

async function uploadPhoto(request: APIRequestContext, fleet: Fleet) {
  const res = await request.post("/api/photos", {
    headers: { Authorization: `Bearer ${fleet.token}`, "Content-Type": "image/png" },
    data: PNG,
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * A van's day: "Quote visit" reached and left before its expected 30 minutes there (so it stays
 * arrived, for the driver to mark done), then "Deliver sofa", done with a photo, a signature, the
 * recipient's name and a note. The van is last seen a kilometre north of the first stop, on its way to the second.
 */
async function vanWithADay(request: APIRequestContext, fleet: Fleet): Promise<Story> {
  const [beacon] = await orderVehicles(request, fleet, 1);
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const t0 = Date.now() - 15 * MIN;
  const date = new Date(t0).toISOString().slice(0, 10);
  const plan = async (title: string, more: Record<string, unknown>) => {
    const base = { date, vehicleId: beacon!.vehicleId, windowStart: "00:00", windowEnd: "23:59" };
    const res = await request.post("/api/jobs", { headers, data: { title, ...base, ...more } });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const quote = await plan("Quote visit", { location: STOP, durationMinutes: 30 });
  // No window: on the timeline, a block over the whole day would cover the other one.
  const sofa = await plan("Deliver sofa", {
    location: { latitude: 41.9, longitude: -87.65 },
    windowStart: null,
    windowEnd: null,
  });
  const proof = {
    photoIds: [await uploadPhoto(request, fleet)],
    signaturePhotoId: await uploadPhoto(request, fleet),
    recipientName: "Jo Baker",
    note: "Left by the back door",
  };
  expect((await request.post(`/api/jobs/${sofa}/complete`, { headers, data: proof })).status()).toBe(200);
  const at = (lat: number, timestamp: number, speed: number) =>
    report(request, beacon!.id, { lat, lon: STOP.longitude, timestamp, ignition: true, speed });
  await at(41.87, t0, 20);
  await at(STOP.latitude, t0 + 20_000, 0);
  await at(STOP.latitude, t0 + 4 * MIN, 0);
  await at(41.8901, t0 + 4 * MIN + 20_000, 20);
  await expect
    .poll(async () => {
      const job = (await (await request.get(`/api/jobs/${quote}`, { headers })).json()) as {
        departedAt: string | null;
      };
      return job.departedAt !== null;
    })
    .toBe(true);
  return { vanId: beacon!.vehicleId, vanName: beacon!.vehicleName, beaconId: beacon!.id, quote, sofa };
}

/** The page with the map's test hooks on, and every warning mapbox-gl writes to the console kept. */
async function dispatchPage(page: Page, fleet: Fleet, path = "/jobs") {
  const warnings: string[] = [];
  page.on("console", (message) => warnings.push(message.text()));
  await page.addInitScript(() => ((window as unknown as { __fleetOpsDebug: string[] }).__fleetOpsDebug = ["map"]));
  await signInAs(page, fleet.token);
  await page.goto(path);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true", { timeout: 30_000 });
  return warnings;
}

const detail = (page: Page) => page.getByRole("dialog");
const fact = (page: Page, id: string) => detail(page).getByTestId(id).locator("dd");

/**
 * Drawn over the map (mapbox-gl's stylesheet places markers), not in the page's flow below it;
 * asked until it is, since the map redraws its markers a frame after its box changes.
 */
async function expectOnMap(page: Page, target: Locator) {
  const inside = async () => {
    const map = (await page.getByTestId("fleet-map").boundingBox())!;
    const box = (await target.boundingBox())!;
    return (
      box.x >= map.x &&
      box.y >= map.y &&
      box.x + box.width <= map.x + map.width &&
      box.y + box.height <= map.y + map.height
    );
  };
  await expect.poll(inside).toBe(true);
}

test.describe("at 1440 px", () => {
  test.use({ viewport: DESKTOP });

  test("a stop's story opens from its row, its marker and its timeline block, with the stamps of the van's reports and the driver's proof; the van is on the map", async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const fleet = await newFleetAccount(request, "Story Fleet");
    const day = await vanWithADay(request, fleet);
    const warnings = await dispatchPage(page, fleet);

    // The van left "Quote visit" early: the list says so, not "Arrived".
    const stops = page.getByRole("list", { name: `Stops of ${day.vanName}` });
    await expect(stops.getByRole("listitem").first()).toContainText("Left, not marked done");

    // From the row.
    await stops.getByRole("link", { name: "Quote visit", exact: true }).click();
    await expect(detail(page).getByRole("heading", { name: "#1 Quote visit" })).toBeFocused();
    await expect(fact(page, "job-status")).toHaveText("Left, not marked done");
    await expect(fact(page, "job-arrived")).toHaveText(/^\d{1,2}:\d{2}/);
    await expect(fact(page, "job-departed")).toHaveText(/^\d{1,2}:\d{2}/);
    await expect(fact(page, "job-on-site")).toHaveText("4m");
    await expect(detail(page).getByTestId("job-done")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("story-from-row-1440.png") });
    await page.keyboard.press("Escape");
    await expect(detail(page)).toHaveCount(0);

    // From the marker, drawn over the map, not below it; mapbox-gl found its stylesheet.
    const marker = page.getByRole("button", { name: "Stop 2: Deliver sofa (done)" });
    await expectOnMap(page, marker);
    await marker.click();
    await expect(detail(page).getByRole("heading", { name: "#2 Deliver sofa" })).toBeVisible();
    await expect(fact(page, "job-status")).toHaveText("Completed");
    await expect(fact(page, "job-done")).toHaveText(/^\d{1,2}:\d{2}/);
    const proof = detail(page).getByRole("region", { name: "Proof of delivery" });
    for (const name of ["Photo", "Signature of Jo Baker"]) {
      const image = proof.getByRole("img", { name });
      await expect(image).toBeVisible();
      // Served by GET /api/photos/{id}: decoded, not a broken image.
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    }
    await expect(proof).toContainText("Received by");
    await expect(proof).toContainText("Jo Baker");
    await expect(proof).toContainText("Left by the back door");
    await page.screenshot({ path: testInfo.outputPath("story-from-marker-1440.png") });

    // From the timeline (a block selects its stop; Open tells its story): another stop replaces the open one.
    await page
      .getByRole("group", { name: `${day.vanName}'s day` })
      .getByRole("button", { name: /^Stop 1: Quote visit/ })
      .click();
    await page
      .getByRole("group", { name: /^Selected stop: Quote visit/ })
      .getByRole("button", { name: "Open" })
      .click();
    await expect(detail(page).getByRole("heading", { name: "#1 Quote visit" })).toBeVisible();
    await detail(page).getByRole("button", { name: "Close the job's details" }).click();
    await expect(detail(page)).toHaveCount(0);

    // The van where it last reported, drawn by the fleet map's own layer.
    const map = page.getByTestId("fleet-map");
    await expect(map).toHaveAttribute("data-vehicle-count", "1");
    type Hooks = { __fleetMap?: { beaconAt(id: string): { x: number; y: number } | null } };
    const beacon = await page.evaluate(
      (id) => (window as unknown as Hooks).__fleetMap?.beaconAt(id) ?? null,
      day.vanId,
    );
    const size = (await map.boundingBox())!;
    expect(beacon).not.toBeNull();
    expect(beacon!.x).toBeGreaterThan(0);
    expect(beacon!.x).toBeLessThan(size.width);
    expect(beacon!.y).toBeGreaterThan(0);
    expect(beacon!.y).toBeLessThan(size.height);
    expect(warnings.filter((w) => w.includes(MISSING_CSS))).toEqual([]);
  });

  test("Pick on map brings the map into view and marks the point picked", async ({ page, request }, testInfo) => {
    const fleet = await newFleetAccount(request, "Pick Fleet");
    await dispatchPage(page, fleet);
    const form = page.getByRole("form", { name: "New job" });
    const map = page.getByTestId("fleet-map");
    await form.getByLabel("Title").scrollIntoViewIfNeeded();
    await expect(map).not.toBeInViewport({ ratio: 0.9 });
    await form.getByRole("button", { name: "Pick on map" }).click();
    await expect(map).toBeInViewport({ ratio: 0.9 });
    await map.click({ position: { x: 400, y: 250 } });
    const pin = page.getByRole("img", { name: /^Picked point / });
    await expect(pin).toBeVisible();
    await expectOnMap(page, pin);
    await expect(map).toBeInViewport({ ratio: 0.9 });
    const latitude = await form.getByLabel("Latitude").inputValue();
    await expect(pin).toHaveAccessibleName(new RegExp(`^Picked point ${Number(latitude).toFixed(5)}, `));
    await page.screenshot({ path: testInfo.outputPath("picked-point-1440.png") });
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: PHONE });

  test("a stop's story fills the phone's screen, and a point picked on the map is marked where it can be seen", async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const fleet = await newFleetAccount(request, "Phone Story Fleet");
    const day = await vanWithADay(request, fleet);
    await dispatchPage(page, fleet);
    await page
      .getByRole("list", { name: `Stops of ${day.vanName}` })
      .getByRole("link", { name: "Deliver sofa", exact: true })
      .click();
    const panel = detail(page);
    await expect(panel.getByRole("heading", { name: "#2 Deliver sofa" })).toBeVisible();
    await expect(
      panel.getByRole("region", { name: "Proof of delivery" }).getByRole("img", { name: "Photo" }),
    ).toBeVisible();
    const box = (await panel.boundingBox())!;
    expect([box.x, box.width]).toEqual([0, PHONE.width]);
    // Nothing makes the page scroll sideways (the timeline scrolls in its own box).
    const sideways = await page.evaluate(() =>
      [document.scrollingElement!, document.querySelector(".app-main")!].map((e) => e.scrollWidth - e.clientWidth),
    );
    expect(sideways).toEqual([0, 0]);
    await page.screenshot({ path: testInfo.outputPath("story-390.png") });
    await panel.getByRole("button", { name: "Close the job's details" }).click();

    const form = page.getByRole("form", { name: "New job" });
    await form.getByRole("button", { name: "Pick on map" }).click();
    const map = page.getByTestId("fleet-map");
    await expect(map).toBeInViewport({ ratio: 0.9 });
    await map.click({ position: { x: 200, y: 150 } });
    await expect(page.getByRole("img", { name: /^Picked point / })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("picked-point-390.png") });
  });
});

test("the customer's tracking page draws its map with mapbox-gl's stylesheet", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Track Style Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const date = new Date().toISOString().slice(0, 10);
  const job = await request.post("/api/jobs", { headers, data: { title: "Deliver lamp", date, location: STOP } });
  expect(job.status()).toBe(201);
  const { id } = (await job.json()) as { id: string };
  const share = await request.post(`/api/jobs/${id}/shares`, { headers, data: {} });
  expect(share.status()).toBe(201);
  const { url } = (await share.json()) as { url: string };
  const warnings: string[] = [];
  page.on("console", (message) => warnings.push(message.text()));
  await page.goto(new URL(url).pathname);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true", { timeout: 30_000 });
  // mapbox-gl.css places the map's controls in its corners.
  await expect(page.locator(".mapboxgl-control-container .mapboxgl-ctrl-bottom-right")).toHaveCSS(
    "position",
    "absolute",
  );
  expect(warnings.filter((w) => w.includes(MISSING_CSS))).toEqual([]);
});
