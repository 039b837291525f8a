import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, indicator, orderVehicle } from "./sync-helpers";
import { colleague } from "./team-helpers";

/**
 * "Plan the day" on the dispatch page (issue 54, docs/decisions/0088): a proposal beside the day's
 * routes with the day before and after and why a job is left out, applied in one write (refused
 * when the day changed since, then planned again), and only for those who edit jobs.
 */

type Fleet = { token: string; workspaceId: string };
type StoredJob = { id: string; title: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });
/** Tomorrow (the workspace's zone is UTC): a day nobody has set off on, whatever the hour of the run. */
const DAY = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);

async function addJob(request: APIRequestContext, fleet: Fleet, title: string, data: Record<string, unknown>) {
  const res = await request.post("/api/jobs", { headers: auth(fleet), data: { date: DAY, title, ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as StoredJob;
}
const at = (latitude: number, longitude: number) => ({ location: { latitude, longitude } });

/** Two vans, each with three stops out of order along a line in Chicago; one job for anyone; one at night; one too big. */
async function dayOfTwoVans(request: APIRequestContext, fleet: Fleet) {
  const vanA = await orderVehicle(request, fleet);
  const vanB = await orderVehicle(request, fleet);
  for (const [title, latitude] of [
    ["North depot", 41.97],
    ["River school", 41.89],
    ["Park clinic", 41.93],
  ] as const)
    await addJob(request, fleet, title, { vehicleId: vanA.id, ...at(latitude, -87.63) });
  const first = await addJob(request, fleet, "West bakery", { vehicleId: vanB.id, ...at(41.8, -87.72) });
  await addJob(request, fleet, "East pharmacy", { vehicleId: vanB.id, ...at(41.8, -87.58) });
  await addJob(request, fleet, "Central library", { vehicleId: vanB.id, ...at(41.8, -87.65) });
  await addJob(request, fleet, "Collect returns", at(41.85, -87.64));
  await addJob(request, fleet, "Night drop", { ...at(41.86, -87.62), windowStart: "22:00", windowEnd: "23:00" });
  // Each van carries 10; the piano takes 12 (a job's size, counted against a vehicle's capacity).
  for (const van of [vanA, vanB])
    expect(
      (await request.patch(`/api/vehicles/${van.id}`, { headers: auth(fleet), data: { capacity: 10 } })).status(),
    ).toBe(200);
  await addJob(request, fleet, "Piano", { ...at(41.87, -87.63), size: 12 });
  return { vanA, vanB, first };
}

const stopsOf = (page: Page, name: string) => page.getByRole("list", { name: `Stops of ${name}` });
const titles = (list: ReturnType<typeof stopsOf>) => list.locator(".stop-title");
const proposal = (page: Page) => page.getByRole("region", { name: "Proposed plan" });
const proposedTitles = (page: Page, name: string) =>
  proposal(page)
    .getByRole("list", { name: `Proposed stops of ${name}` })
    .locator(".plan-stop-title");

test("a dispatcher plans the day over two vans, reads the proposal, and applies it; a viewer has no such action", async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const fleet = await newFleetAccount(request, "Planning Fleet");
  const { vanA, vanB, first } = await dayOfTwoVans(request, fleet);

  // A viewer reads the day, and is offered no plan.
  const viewer = await colleague(request, fleet, "viewer");
  const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const viewerPage = await viewerContext.newPage();
  await signInAs(viewerPage, viewer.token);
  await viewerPage.goto(`/jobs?date=${DAY}`);
  await expect(titles(stopsOf(viewerPage, vanA.name))).toHaveCount(3);
  await expect(viewerPage.getByRole("button", { name: "Plan the day" })).toHaveCount(0);
  await viewerContext.close();

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAs(page, fleet.token);
  await page.goto(`/jobs?date=${DAY}`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await expect(titles(stopsOf(page, vanA.name))).toHaveText(["North depot", "River school", "Park clinic"]);
  await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");

  await page.getByRole("button", { name: "Plan the day" }).click();
  const totals = proposal(page).getByRole("table", { name: "The day before and after" });
  await expect(totals.getByRole("row", { name: /^Distance/ })).toContainText(/\d+\.\d (km|mi).*\d+\.\d (km|mi)/);
  await expect(totals.getByRole("row", { name: /^Hours/ })).toBeVisible();
  await expect(totals.getByRole("row", { name: /^Late stops/ })).toBeVisible();
  await expect(totals.getByRole("row", { name: /^Stops/ })).toBeVisible();
  await expect(proposal(page).getByRole("list", { name: "Left out of the plan" }).getByRole("listitem")).toHaveText([
    "Night drop: No vehicle can reach it within its time window and shift",
    "Piano: Larger than any vehicle's capacity",
  ]);
  // Kept on their vans (keepAssigned), each van's stops no longer zig-zag; the free job found a van.
  await expect(proposedTitles(page, vanB.name)).not.toHaveCount(0);
  const proposedA = await proposedTitles(page, vanA.name).allTextContents();
  const plannedTitles = [...proposedA, ...(await proposedTitles(page, vanB.name).allTextContents())];
  expect(plannedTitles.sort()).toEqual(
    [
      "North depot",
      "River school",
      "Park clinic",
      "West bakery",
      "East pharmacy",
      "Central library",
      "Collect returns",
    ].sort(),
  );
  expect(proposedA.filter((t) => t !== "Collect returns")).not.toEqual(["North depot", "River school", "Park clinic"]);
  await expect(proposal(page).locator(".plan-stop-arrival").first()).toHaveText(/^\d{1,2}:\d\d/);
  // The proposal is what the map draws, apart from today's routes: every stop of it, marked as proposed.
  await expect(page.locator(".stop-marker.proposed")).toHaveCount(9);
  // The service worker's "Ready to work offline" would cover the map in the picture (it shows again later).
  await expect(page.getByText("Ready to work offline")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("plan-the-day-1440.png"), fullPage: true });

  // Discard: back to today's plan, untouched.
  await proposal(page).getByRole("button", { name: "Discard" }).click();
  await expect(proposal(page)).toHaveCount(0);
  await expect(page.locator(".stop-marker.proposed")).toHaveCount(0);
  await expect(titles(stopsOf(page, vanA.name))).toHaveText(["North depot", "River school", "Park clinic"]);

  // On a phone: planned again, and a job changed meanwhile makes the plan outdated.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Plan the day" }).click();
  await expect(proposedTitles(page, vanB.name)).not.toHaveCount(0);
  await expect(page.getByText("Ready to work offline")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("plan-the-day-390.png"), fullPage: true });
  const patched = await request.patch(`/api/jobs/${first.id}`, { headers: auth(fleet), data: { notes: "Back door" } });
  expect(patched.status()).toBe(200);
  await proposal(page).getByRole("button", { name: "Apply plan" }).click();
  await expect(proposal(page).getByRole("alert")).toHaveText(
    "The day changed since this plan was made: plan it again.",
  );
  await proposal(page).getByRole("button", { name: "Plan again" }).click();
  await expect(proposal(page).getByRole("button", { name: "Apply plan" })).toBeEnabled();
  const orderA = await proposedTitles(page, vanA.name).allTextContents();
  const orderB = await proposedTitles(page, vanB.name).allTextContents();
  await proposal(page).getByRole("button", { name: "Apply plan" }).click();
  await expect(proposal(page)).toHaveCount(0);

  // Applied: each van's stops in the proposed order, the free job on its van, the night drop and the piano still unassigned.
  await expect(titles(stopsOf(page, vanA.name))).toHaveText(orderA);
  await expect(titles(stopsOf(page, vanB.name))).toHaveText(orderB);
  await expect(titles(page.getByRole("list", { name: "Unassigned jobs" }))).toHaveText(["Night drop", "Piano"]);

  // Offline, the action says it needs a connection.
  await goOffline(page);
  await expect(page.getByRole("status").filter({ hasText: "Planning the day needs a connection" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Plan the day" })).toBeDisabled();
});

test("a vehicle's capacity and shift for planning are set on its Settings tab and kept", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Planning Settings Fleet");
  const van = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${van.id}/settings`);
  const planning = page.getByRole("form", { name: "Planning settings" });
  await planning.getByLabel("Capacity").fill("12");
  await planning.getByLabel("Shift starts").fill("07:30");
  await planning.getByLabel("Shift ends").fill("06:00");
  await planning.getByRole("button", { name: "Save planning" }).click();
  await expect(planning.getByText("Ends after the shift starts")).toBeVisible();
  await planning.getByLabel("Shift ends").fill("16:00");
  await planning.getByRole("button", { name: "Save planning" }).click();
  await expect(page.getByText("Planning settings saved")).toBeVisible();

  await page.reload();
  await expect(planning.getByLabel("Capacity")).toHaveValue("12");
  await expect(planning.getByLabel("Shift starts")).toHaveValue("07:30");
  await expect(planning.getByLabel("Shift ends")).toHaveValue("16:00");
  const stored = await request.get(`/api/vehicles/${van.id}`, { headers: auth(fleet) });
  expect(await stored.json()).toMatchObject({ capacity: 12, shiftStart: "07:30", shiftEnd: "16:00" });
});

test("a dispatcher lets the plan move jobs between vehicles: a van's overflow goes to the other van", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Moving Fleet");
  const vanA = await orderVehicle(request, fleet);
  const vanB = await orderVehicle(request, fleet);
  for (const van of [vanA, vanB])
    expect(
      (await request.patch(`/api/vehicles/${van.id}`, { headers: auth(fleet), data: { capacity: 3 } })).status(),
    ).toBe(200);
  // Six jobs, all given to van A, which carries three.
  const names = ["Dock 1", "Dock 2", "Dock 3", "Dock 4", "Dock 5", "Dock 6"];
  for (const [i, title] of names.entries())
    await addJob(request, fleet, title, { vehicleId: vanA.id, ...at(41.86 + i * 0.01, -87.64) });

  await signInAs(page, fleet.token);
  await page.goto(`/jobs?date=${DAY}`);
  await expect(titles(stopsOf(page, vanA.name))).toHaveCount(6);
  const move = page.getByRole("checkbox", { name: "Let the plan move jobs between vehicles" });
  await expect(move).not.toBeChecked();

  // By default the jobs stay on van A: three fit, three are left out, van B gets none.
  await page.getByRole("button", { name: "Plan the day" }).click();
  const leftOut = proposal(page).getByRole("list", { name: "Left out of the plan" }).getByRole("listitem");
  await expect(leftOut).toHaveCount(3);
  await expect(proposedTitles(page, vanA.name)).toHaveCount(3);
  await expect(proposedTitles(page, vanB.name)).toHaveCount(0);

  // Allowed to move them: three each, none left out; applied, van B has its three.
  await move.check();
  await page.getByRole("button", { name: "Plan the day" }).click();
  await expect(proposedTitles(page, vanB.name)).toHaveCount(3);
  await expect(proposedTitles(page, vanA.name)).toHaveCount(3);
  await expect(leftOut).toHaveCount(0);
  const onB = await proposedTitles(page, vanB.name).allTextContents();
  await proposal(page).getByRole("button", { name: "Apply plan" }).click();
  await expect(proposal(page)).toHaveCount(0);
  await expect(titles(stopsOf(page, vanB.name))).toHaveText(onB);
  await expect(titles(stopsOf(page, vanA.name))).toHaveCount(3);
});
