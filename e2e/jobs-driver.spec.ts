import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";
import { loseTheSignal, serviceWorkerReady, signalBack } from "./field-app-helpers";
import { horizontalOverflow } from "./phone-helpers";

/** The driver's day on a phone (issue 43): opened with no network, stops arrived at and done with proof, synced later. */

test.use({ viewport: { width: 390, height: 844 } });

// A 1×1 PNG: what a phone's camera hands the page, only smaller.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const today = () => new Date().toISOString().slice(0, 10);
type Proof = { photoIds: string[]; signaturePhotoId: string | null; recipientName: string | null; note: string | null };
type StoredJob = { title: string; status: string; arrivedAt: string | null; proof: Proof | null };

test("after a cold start with no network, the driver marks a stop arrived and done with a photo, a signature, a name and a note; all of it reaches the server with the signal", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const fleet = await newFleetAccount(request, "Driver Day Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const van = await orderVehicle(request, fleet);
  for (const [title, latitude] of [
    ["Bakery on Elm", 41.9],
    ["Clinic, back door", 41.91],
  ] as const) {
    const res = await request.post("/api/jobs", {
      headers,
      data: { title, date: today(), vehicleId: van.id, location: { latitude, longitude: -87.65 }, windowEnd: "17:00" },
    });
    expect(res.status()).toBe(201);
  }

  await signInAs(page, fleet.token);
  await page.goto("/my-day");
  await page.getByLabel("Vehicle").selectOption(van.id);
  await expect(page.getByRole("list", { name: "Today's stops" }).getByRole("listitem")).toHaveCount(2);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await serviceWorkerReady(page);
  await page.close();

  const context = page.context();
  await loseTheSignal(context);
  const tab = await context.newPage();
  await tab.goto("/my-day");
  const stop = tab.getByRole("listitem", { name: "Stop 1: Bakery on Elm" });
  await expect(tab.getByRole("listitem", { name: "Stop 2: Clinic, back door" })).toBeVisible();
  // Directions go to the phone's own maps app.
  await expect(stop.getByRole("link", { name: "Directions" })).toHaveAttribute("href", /41\.900000,-87\.650000/);
  await stop.getByRole("button", { name: "Arrived" }).click();
  await expect(stop.getByTestId("stop-status")).toHaveText("Arrived");
  await stop.getByRole("button", { name: "Done" }).click();
  const proof = stop.getByRole("form", { name: "Proof for Bakery on Elm" });
  await proof.locator('input[type="file"]').setInputFiles({ name: "door.png", mimeType: "image/png", buffer: PNG });
  await expect(proof.getByRole("img", { name: "Photo" })).toBeVisible();
  const pad = proof.locator("canvas.signature-pad");
  const box = (await pad.boundingBox())!;
  await tab.mouse.move(box.x + 20, box.y + 40);
  await tab.mouse.down();
  await tab.mouse.move(box.x + 120, box.y + 90, { steps: 8 });
  await tab.mouse.move(box.x + 220, box.y + 50, { steps: 8 });
  await tab.mouse.up();
  await expect(pad).toHaveAttribute("data-signed", "true");
  await proof.getByLabel("Recipient's name").fill("Jo Baker");
  await proof.getByLabel("Note").fill("Left by the back door");
  await proof.getByRole("button", { name: "Complete stop" }).click();
  await expect(stop.getByTestId("stop-status")).toHaveText("Completed");
  await expect(stop).toContainText("received by Jo Baker");
  // Its proof as the dispatcher's job detail shows it (one component, app/jobs/job-proof.tsx), from the device while offline.
  const shown = stop.getByRole("region", { name: "Proof of delivery" });
  await expect(shown.getByRole("img", { name: "Signature of Jo Baker", exact: true })).toBeVisible();
  await expect(shown.getByRole("img", { name: "Photo" })).toHaveCount(1);
  await expect(shown).toContainText("Left by the back door");
  await expect(tab.locator("main").getByRole("status")).toHaveText("2 stops today, 1 to go");
  await expect(indicator(tab)).toHaveAttribute("aria-label", "Offline: 2 changes will sync when you reconnect");
  expect(await horizontalOverflow(tab)).toEqual([]);
  await stop.screenshot({ path: test.info().outputPath("driver-done-stop-390.png") });
  await tab.setViewportSize({ width: 1440, height: 900 });
  await stop.screenshot({ path: test.info().outputPath("driver-done-stop-1440.png") });
  await tab.setViewportSize({ width: 390, height: 844 });

  await signalBack(context);
  await expect(indicator(tab)).toHaveAttribute("data-state", "synced", { timeout: 30_000 });
  const res = await request.get(`/api/jobs?date=${today()}&vehicleId=${van.id}`, { headers });
  const jobs = ((await res.json()) as { jobs: StoredJob[] }).jobs;
  const done = jobs.find((j) => j.title === "Bakery on Elm")!;
  expect(done).toMatchObject({
    status: "completed",
    proof: { recipientName: "Jo Baker", note: "Left by the back door" },
  });
  expect(done.arrivedAt).not.toBeNull();
  expect(done.proof!.photoIds).toHaveLength(1);
  // The photo and the signature (a PNG drawn on the screen) were uploaded when the signal returned.
  for (const id of [done.proof!.photoIds[0]!, done.proof!.signaturePhotoId!])
    await expect
      .poll(async () => (await request.get(`/api/photos/${id}`, { headers })).status(), { timeout: 30_000 })
      .toBe(200);
});
