import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicle } from "./sync-helpers";

/**
 * The dispatch page's day timeline (issue 53): overlapping windows stacked, none covering
 * another; on a phone it scrolls sideways, opens on now and says so; a dispatcher drags a stop to
 * another vehicle with a mouse, and moves it with buttons on a phone.
 */

type Fleet = { token: string; workspaceId: string };
type StoredJob = { id: string; title: string; vehicleId: string | null; sequence: number };
/** Today in a new workspace's zone (UTC). */
const today = () => new Date().toISOString().slice(0, 10);

async function planJob(request: APIRequestContext, fleet: Fleet, data: Record<string, unknown>) {
  const res = await request.post("/api/jobs", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { date: today(), location: { latitude: 41.89, longitude: -87.62 }, ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as StoredJob;
}

/**
 * Van A: stops 2 to 5 one after another and stop 6 over all four (the demo's "6 over stops 2–5");
 * van B: one stop at midnight and one late at night, so the day shown is the whole day and now is
 * always on it, whenever the test runs.
 */
async function busyDay(request: APIRequestContext) {
  const fleet = await newFleetAccount(request, "Timeline Fleet");
  const a = await orderVehicle(request, fleet);
  const b = await orderVehicle(request, fleet);
  const windows = [
    ["07:00", "08:00"],
    ["09:00", "10:00"],
    ["10:00", "11:00"],
    ["11:00", "12:00"],
    ["12:00", "13:00"],
    ["09:00", "17:00"],
  ];
  const jobs: StoredJob[] = [];
  for (const [i, [start, end]] of windows.entries())
    jobs.push(
      await planJob(request, fleet, { title: `A${i + 1}`, vehicleId: a.id, windowStart: start, windowEnd: end }),
    );
  await planJob(request, fleet, { title: "B1", vehicleId: b.id, windowStart: "00:00", windowEnd: "00:30" });
  await planJob(request, fleet, { title: "B2", vehicleId: b.id, windowStart: "23:00", windowEnd: "23:59" });
  return { fleet, a, b, jobs };
}

async function vehicleOrder(request: APIRequestContext, fleet: Fleet, vehicleId: string) {
  const res = await request.get(`/api/jobs?date=${today()}&vehicleId=${vehicleId}`, {
    headers: { Authorization: `Bearer ${fleet.token}` },
  });
  return ((await res.json()) as { jobs: StoredJob[] }).jobs.map((j) => j.title);
}

const row = (page: Page, name: string) => page.getByRole("group", { name: `${name}'s day` });
const block = (rowOf: Locator, n: number) => rowOf.getByRole("button", { name: new RegExp(`^Stop ${n}:`) });

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

test.describe("at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("stacks overlapping windows, and a stop dragged onto another vehicle's row goes to it, by its time", async ({
    page,
    request,
  }, testInfo) => {
    const { fleet, a, b } = await busyDay(request);
    await signInAs(page, fleet.token);
    await page.goto("/jobs");
    const rowA = row(page, a.name);
    await expect(block(rowA, 6)).toBeVisible();
    await expect(rowA).toHaveAttribute("data-lanes", "2");
    const six = (await block(rowA, 6).boundingBox())!;
    for (const n of [2, 3, 4, 5])
      expect(overlaps(six, (await block(rowA, n).boundingBox())!), `6 over ${n}`).toBe(false);
    await page.screenshot({ path: testInfo.outputPath("timeline-1440.png") });

    // Drag stop 3 (10:00–11:00) down onto van B's row, at the same time of day.
    const from = (await block(rowA, 3).boundingBox())!;
    const rowB = (await row(page, b.name).locator(".timeline-track").boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    const to = { x: from.x + from.width / 2, y: rowB.y + rowB.height / 2 };
    await page.mouse.move(to.x, to.y - 10, { steps: 5 });
    await page.mouse.move(to.x, to.y, { steps: 5 });
    await expect(row(page, b.name)).toHaveClass(/drop-target/);
    await page.mouse.up();

    await expect(block(row(page, b.name), 3)).toBeVisible();
    await expect(row(page, b.name).getByRole("button", { name: /^Stop 2: A3:/ })).toBeVisible();
    await expect.poll(() => vehicleOrder(request, fleet, b.id)).toEqual(["B1", "A3", "B2"]);
    await expect.poll(() => vehicleOrder(request, fleet, a.id)).toEqual(["A1", "A2", "A4", "A5", "A6"]);
    await page.screenshot({ path: testInfo.outputPath("timeline-1440-after-drag.png") });
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("scrolls to now and says it scrolls; a stop is moved to another vehicle with buttons", async ({
    page,
    request,
  }, testInfo) => {
    const { fleet, a, b } = await busyDay(request);
    await signInAs(page, fleet.token);
    await page.goto("/jobs");
    const timeline = page.getByRole("figure", { name: "Day timeline" });
    await expect(block(row(page, a.name), 6)).toBeAttached();
    await expect(page.getByTestId("timeline-hint")).toHaveText(/Swipe sideways/);
    // Now is on screen, whatever the hour: the timeline opened on it.
    const scroller = (await timeline.locator(".timeline-scroll").boundingBox())!;
    const now = (await row(page, a.name).locator(".timeline-now").boundingBox())!;
    expect(now.x).toBeGreaterThanOrEqual(scroller.x + 84);
    expect(now.x).toBeLessThanOrEqual(scroller.x + scroller.width);
    // The vehicles' names stay at the left while the day is scrolled to now.
    const name = (await row(page, a.name).locator(".timeline-name").boundingBox())!;
    expect(Math.round(name.x)).toBe(Math.round(scroller.x));
    await timeline.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("timeline-390.png") });

    // Tap stop 1 of van A, then move it to van B with a button.
    await timeline.locator(".timeline-scroll").evaluate((el) => (el.scrollLeft = 0));
    await block(row(page, a.name), 1).tap();
    const bar = page.getByRole("group", { name: "Selected stop: A1" });
    await expect(bar).toBeVisible();
    const names = await page.locator(".timeline-row .timeline-name").allTextContents();
    const arrow = names.indexOf(a.name) < names.indexOf(b.name) ? "↓" : "↑";
    await bar.getByRole("button", { name: `${arrow} To ${b.name}` }).tap();
    await expect.poll(() => vehicleOrder(request, fleet, b.id)).toEqual(["B1", "A1", "B2"]);
    await expect(bar).toContainText(b.name);
    await bar.getByRole("button", { name: "Earlier" }).tap();
    await expect.poll(() => vehicleOrder(request, fleet, b.id)).toEqual(["A1", "B1", "B2"]);
    await page.screenshot({ path: testInfo.outputPath("timeline-390-moved.png") });
  });
});
