import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, markPage, orderVehicle, stillMarked } from "./sync-helpers";
import { colleague } from "./team-helpers";

/** Jobs and routes in the browser (issue 43): the dispatch page, a dispatcher's edit reaching the driver. */

test.use({ viewport: { width: 1440, height: 900 } });

type Fleet = { token: string; workspaceId: string };
type StoredJob = { id: string; title: string; vehicleId: string | null; sequence: number; status: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });
/** Today as the page plans it: the workspace's zone (UTC for a new one), the browser's here too. */
const today = () => new Date().toISOString().slice(0, 10);

async function jobsOf(request: APIRequestContext, fleet: Fleet): Promise<StoredJob[]> {
  const res = await request.get(`/api/jobs?date=${today()}`, { headers: auth(fleet) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { jobs: StoredJob[] }).jobs;
}

async function planJob(request: APIRequestContext, fleet: Fleet, data: Record<string, unknown>) {
  const res = await request.post("/api/jobs", { headers: auth(fleet), data: { date: today(), ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as StoredJob;
}

const stopsOf = (page: Page, name: string) => page.getByRole("list", { name: `Stops of ${name}` });
const titles = (list: ReturnType<typeof stopsOf>) => list.locator(".stop-title");

test("a dispatcher adds a job at a point picked on the map, assigns and reorders it, and the driver's open page follows without a reload", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const fleet = await newFleetAccount(request, "Dispatch Fleet");
  const van = await orderVehicle(request, fleet);
  await planJob(request, fleet, {
    title: "Collect pallets",
    vehicleId: van.id,
    location: { latitude: 41.89, longitude: -87.62 },
    windowStart: "09:00",
    windowEnd: "10:00",
  });

  // The driver (a member) has their day open on another browser.
  const driver = await colleague(request, fleet, "member");
  const driverContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await driverContext.newPage();
  await signInAs(phone, driver.token);
  await phone.goto("/my-day");
  await phone.getByLabel("Vehicle").selectOption(van.id);
  const day = phone.getByRole("list", { name: "Today's stops" });
  await expect(day.getByRole("listitem")).toHaveCount(1);
  await markPage(phone);

  await signInAs(page, fleet.token);
  await page.goto("/jobs");
  await expect(page.getByRole("heading", { level: 1, name: "Jobs" })).toBeVisible();
  await expect(titles(stopsOf(page, van.name))).toHaveText(["Collect pallets"]);
  await expect(page.getByRole("button", { name: "Stop 1: Collect pallets (to come)" })).toBeVisible();

  // A new job: refused without a point, then at a point picked on the map.
  const form = page.getByRole("form", { name: "New job" });
  await form.getByLabel("Title").fill("Deliver 4 boxes");
  await form.getByRole("button", { name: "Add job" }).click();
  await expect(form.getByText("Choose a place, pick a point on the map or type it")).toBeVisible();
  await form.getByRole("button", { name: "Pick on map" }).click();
  const map = page.getByTestId("fleet-map");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  await map.click({ position: { x: 300, y: 300 } });
  await expect(form.getByLabel("Latitude")).not.toHaveValue("");
  await form.getByLabel("Window from").fill("11:00");
  await form.getByLabel("Window to").fill("12:00");
  await form.getByLabel("Customer", { exact: true }).fill("Ann Lee");
  await form.getByRole("button", { name: "Add job" }).click();
  const unassigned = page.getByRole("list", { name: "Unassigned jobs" });
  await expect(titles(unassigned)).toHaveText(["Deliver 4 boxes"]);
  await expect(page.getByRole("button", { name: "Stop unassigned: Deliver 4 boxes (to come)" })).toBeVisible();

  // Assigned: it goes to the end of the van's day, there and on the driver's phone.
  await unassigned.getByLabel("Vehicle for Deliver 4 boxes").selectOption(van.id);
  await expect(titles(stopsOf(page, van.name))).toHaveText(["Collect pallets", "Deliver 4 boxes"]);
  await expect(day.locator("h2")).toHaveText(["Collect pallets", "Deliver 4 boxes"]);

  // Reordered with the buttons (keyboard, phones), then back by dragging.
  await page.getByRole("button", { name: "Move Deliver 4 boxes earlier" }).click();
  await expect(titles(stopsOf(page, van.name))).toHaveText(["Deliver 4 boxes", "Collect pallets"]);
  await expect(day.locator("h2")).toHaveText(["Deliver 4 boxes", "Collect pallets"]);
  const rows = stopsOf(page, van.name).getByRole("listitem");
  await rows.nth(1).dragTo(rows.nth(0));
  await expect(titles(stopsOf(page, van.name))).toHaveText(["Collect pallets", "Deliver 4 boxes"]);
  await expect(day.locator("h2")).toHaveText(["Collect pallets", "Deliver 4 boxes"]);
  expect(await stillMarked(phone)).toBe(true);

  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const stored = (await jobsOf(request, fleet)).sort((a, b) => a.sequence - b.sequence);
  expect(stored.map((j) => [j.title, j.vehicleId])).toEqual([
    ["Collect pallets", van.id],
    ["Deliver 4 boxes", van.id],
  ]);

  // The filters: a status no job has empties the van's list; another day has no routes.
  await page.getByRole("search", { name: "Filter jobs" }).getByLabel("Status").selectOption("completed");
  await expect(page).toHaveURL(/status=completed/);
  await expect(stopsOf(page, van.name).getByRole("listitem")).toHaveCount(0);
  await page.getByRole("search", { name: "Filter jobs" }).getByLabel("Status").selectOption("");
  await page.getByRole("search", { name: "Filter jobs" }).getByLabel("Date").fill("2030-01-02");
  await expect(page.getByText("No vehicle has stops on 2030-01-02.")).toBeVisible();
  await driverContext.close();
});

test("a CSV import lists its bad lines and imports nothing, then imports the corrected file", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Import Fleet");
  const van = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto("/jobs");
  const form = page.getByRole("form", { name: "Import jobs" });
  const header = "title,latitude,longitude,address,date,windowStart,windowEnd,vehicleName";
  const good = `Drop A,41.88,-87.63,,${today()},09:00,10:00,${van.name}`;
  await form.getByLabel("Or paste the lines").fill([header, good, `Drop B,95,-87.63,,${today()},,,`].join("\n"));
  await form.getByRole("button", { name: "Import" }).click();
  const lines = form.getByRole("list", { name: "Lines to fix" });
  await expect(lines.getByRole("listitem")).toHaveCount(1);
  await expect(lines).toContainText("Line 3:");
  expect(await jobsOf(request, fleet)).toEqual([]);

  await form.getByLabel("Or paste the lines").fill([header, good, `Drop B,41.9,-87.64,,${today()},,,`].join("\n"));
  await form.getByRole("button", { name: "Import" }).click();
  await expect(form.getByRole("status")).toHaveText("Imported 2 jobs.");
  await expect(titles(stopsOf(page, van.name))).toHaveText(["Drop A"]);
  await expect(titles(page.getByRole("list", { name: "Unassigned jobs" }))).toHaveText(["Drop B"]);
});

test("the customer's tracking page says plainly when its link has ended", async ({ page }) => {
  await page.goto("/track/no-such-token");
  await expect(page.getByRole("heading", { level: 1, name: "This tracking link has ended" })).toBeVisible();
});

test("a dispatcher makes a job's customer link from its stop, and the customer's page shows the job", async ({
  page,
  browser,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Link Fleet");
  const van = await orderVehicle(request, fleet);
  await planJob(request, fleet, {
    title: "Deliver sofa",
    vehicleId: van.id,
    location: { latitude: 41.89, longitude: -87.62 },
    windowStart: "09:00",
    windowEnd: "23:00",
  });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAs(page, fleet.token);
  await page.goto("/jobs");
  await page.getByRole("button", { name: "Customer link for Deliver sofa" }).click();
  const toast = page.getByText("Customer link copied");
  await expect(toast).toBeVisible();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(/\/track\/[\w-]+$/);

  // The customer opens it with no account: the job's title and status, nothing else of the fleet.
  const customer = await browser.newContext();
  const customerPage = await customer.newPage();
  await customerPage.goto(new URL(url).pathname);
  await expect(customerPage.getByText("Deliver sofa")).toBeVisible();
  await customer.close();
});
