import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount } from "./helpers";
import { report } from "./ui-helpers";

/**
 * The customer's tracking page (issue 53): in a customer's words, on the sender's clock with its
 * zone named, the sender named, a map of the destination and the vehicle only while the visit is
 * to come; the outcome, and no map of nowhere, once it is over.
 */

test.use({ viewport: { width: 390, height: 844 } });

type Fleet = { token: string; workspaceId: string };
const CHICAGO = "America/Chicago";
const DESTINATION = { latitude: 41.9, longitude: -87.65 };
const dayIn = (timeZone: string) => new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date());
/** A time as a Chicago workspace writes it (12-hour, the country's habit). */
const chicagoTime = (t: number) =>
  new Intl.DateTimeFormat("en-US", { timeZone: CHICAGO, hour: "numeric", minute: "2-digit" }).format(new Date(t));

async function chicagoFleet(request: APIRequestContext, name: string) {
  const fleet = await newFleetAccount(request, name);
  const auth = { Authorization: `Bearer ${fleet.token}` };
  expect(
    (await request.patch("/api/workspace/preferences", { headers: auth, data: { timeZone: CHICAGO } })).status(),
  ).toBe(200);
  const ordered = await request.post("/api/beacons/order", {
    headers: auth,
    data: { workspaceId: fleet.workspaceId, count: 1 },
  });
  expect(ordered.status()).toBe(201);
  const [beacon] = (await ordered.json()) as { id: string; vehicleId: string; vehicleName: string }[];
  return { ...fleet, auth, beacon: beacon! };
}

/** Today's job in Chicago for the vehicle, and its customer link's path. */
async function jobWithLink(
  request: APIRequestContext,
  fleet: Fleet & { auth: Record<string, string> },
  vehicleId: string,
) {
  const created = await request.post("/api/jobs", {
    headers: fleet.auth,
    data: {
      title: "Deliver sofa",
      date: dayIn(CHICAGO),
      vehicleId,
      location: { ...DESTINATION, address: "1550 N Damen Ave" },
      windowStart: "00:00",
      windowEnd: "23:59",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const shared = await request.post(`/api/jobs/${id}/shares`, { headers: fleet.auth, data: {} });
  expect(shared.status()).toBe(201);
  return { id, path: new URL(((await shared.json()) as { url: string }).url).pathname };
}

/** What no customer should read: our status words, and the old page's empty vehicle line. */
async function expectNoInternalWords(page: Page) {
  await expect(page.locator("main")).not.toContainText(/en_route|Skipped|skipped|Not assigned|Status/);
}

/** React's complaints, such as a first render in the browser that differs from the server's HTML. */
function reactErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /React error|hydrat/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

async function expectOverWithoutMap(page: Page) {
  await expect(page.getByTestId("track-map")).toHaveCount(0);
  await expect(page.getByTestId("fleet-map")).toHaveCount(0);
  await expectNoInternalWords(page);
  await expect(page.getByTestId("track-sender")).toContainText("Sofa Co");
}

test("en route: when it arrives on the sender's clock, the zone named, the destination and the vehicle on a map", async ({
  page,
  request,
}, testInfo) => {
  const fleet = await chicagoFleet(request, "Sofa Co");
  const job = await jobWithLink(request, fleet, fleet.beacon.vehicleId);
  // The van drives north towards the stop, about 4 km away.
  const now = Date.now();
  for (const [i, lat] of [41.85, 41.855, 41.86].entries())
    await report(request, fleet.beacon.id, { lat, lon: -87.65, timestamp: now - (2 - i) * 30_000, speed: 25 });

  // The server's HTML already says it (a phone reads it before the app's code arrives), and is kept nowhere.
  await expect
    .poll(async () => (await request.get(job.path)).text(), { timeout: 30_000 })
    .toMatch(/Arriving (in about|any minute)/);
  const html = await request.get(job.path);
  expect(html.headers()["cache-control"]).toBe("private, no-store");
  expect(await html.text()).toContain("From <strong>Sofa Co</strong>");

  const errors = reactErrors(page);
  await page.goto(job.path);
  await expect(page.getByTestId("track-headline")).toHaveText("On the way");
  await expect(page.getByTestId("track-eta")).toHaveText(/^Arriving (in about \d+ (minutes|h.*)|any minute now)$/, {
    timeout: 30_000,
  });
  const answer = (await (await request.get(`/api/track/${job.path.split("/").at(-1)}`)).json()) as {
    job: { eta: string };
  };
  // The ETA on the workspace's clock though this browser is elsewhere, the window as the sender typed it.
  await expect(page.getByTestId("track-detail")).toContainText(
    `Expected at ${chicagoTime(Date.parse(answer.job.eta))}`,
  );
  await expect(page.getByTestId("track-window")).toHaveText("12:00 AM–11:59 PM");
  await expect(page.getByTestId("track-zone")).toHaveText(/^Times in Chicago time \(C[SD]T\)$/);
  await expect(page.getByTestId("track-sender")).toHaveText("From Sofa Co");
  await expect(page.getByTestId("track-page")).toHaveAttribute("data-destination", "41.9,-87.65");
  await expect(page.getByTestId("track-page")).toHaveAttribute("data-vehicle", "41.86,-87.65");
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true", { timeout: 30_000 });
  await expectNoInternalWords(page);
  expect(errors, "the browser renders what the server's HTML said").toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("track-en-route-390.png") });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("track-en-route-1440.png") });
});

test("delivered: the time it was done, and no map once the visit is over", async ({ page, request }, testInfo) => {
  const fleet = await chicagoFleet(request, "Sofa Co");
  const job = await jobWithLink(request, fleet, fleet.beacon.vehicleId);
  const done = await request.post(`/api/jobs/${job.id}/complete`, { headers: fleet.auth, data: {} });
  expect(done.status(), await done.text()).toBe(200);
  const completedAt = Date.parse(((await done.json()) as { completedAt: string }).completedAt);

  await page.goto(job.path);
  await expect(page.getByTestId("track-headline")).toHaveText(`Delivered at ${chicagoTime(completedAt)}`);
  await expectOverWithoutMap(page);
  await expect(page.getByText("Vehicle")).toHaveCount(0);
  await expect(page.getByTestId("track-zone")).toHaveText(/^Times in Chicago time \(C[SD]T\)$/);
  await page.screenshot({ path: testInfo.outputPath("track-delivered-390.png") });
});

test("passed by (skipped) or cancelled: said plainly, who to ask named, no map", async ({
  page,
  request,
}, testInfo) => {
  const fleet = await chicagoFleet(request, "Sofa Co");
  const skipped = await jobWithLink(request, fleet, fleet.beacon.vehicleId);
  const cancelled = await jobWithLink(request, fleet, fleet.beacon.vehicleId);
  for (const [job, status] of [
    [skipped, "skipped"],
    [cancelled, "cancelled"],
  ] as const) {
    const res = await request.patch(`/api/jobs/${job.id}`, { headers: fleet.auth, data: { status } });
    expect(res.status(), await res.text()).toBe(200);
  }

  await page.goto(skipped.path);
  await expect(page.getByTestId("track-eta")).toHaveText(
    "We could not make it today: the vehicle had to go on to its other stops.",
  );
  await expect(page.getByTestId("track-detail")).toHaveText("Sofa Co will be in touch about another time.");
  await expectOverWithoutMap(page);
  await page.screenshot({ path: testInfo.outputPath("track-skipped-390.png") });

  await page.goto(cancelled.path);
  await expect(page.getByTestId("track-headline")).toHaveText("This visit was cancelled");
  await expect(page.getByTestId("track-detail")).toHaveText("Sofa Co cancelled it: ask them if you need another time.");
  await expectOverWithoutMap(page);
  await expect(page.getByTestId("track-zone")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("track-cancelled-390.png") });
});
