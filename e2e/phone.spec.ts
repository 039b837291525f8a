import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, heading, indicator, orderVehicle, rename } from "./sync-helpers";
import {
  appPages,
  DESKTOP,
  horizontalOverflow,
  livelyFleet,
  PHONE,
  seriousViolations,
  smallTargets,
} from "./phone-helpers";

/**
 * What of the top bar does not fit on its one line: a text on more than one line, or anything
 * past the bar's right edge or out of its height.
 */
function topBarLines(page: Page): Promise<string[]> {
  return page.locator(".top-bar").evaluate((bar) => {
    const box = bar.getBoundingClientRect();
    const problems: string[] = [];
    for (const el of Array.from(bar.querySelectorAll<HTMLElement>("*"))) {
      const r = el.getBoundingClientRect();
      if (!r.width) continue;
      const name = `${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.trim()}"`;
      if (r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        problems.push(`${name} overflows`);
      for (const text of Array.from(el.childNodes).filter(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      )) {
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = new Set(Array.from(range.getClientRects()).map((line) => Math.round(line.top)));
        if (lines.size > 1) problems.push(`${name} on ${lines.size} lines`);
      }
    }
    return problems;
  });
}

/**
 * The app on a phone (issue 33, 390 × 844): a menu that carries every page with the Inbox count,
 * the map's panel as a sheet that leaves the map visible, vehicles as cards, the Inbox, a form of
 * the form kit; and on every page, at 390 and 1440 px, no sideways scrolling and no serious or
 * critical axe-core violation.
 */
test.describe("on a phone", () => {
  // Reduced motion: the sheet moves without its 0.2 s animation, so a box measured is where it stays.
  test.use({ viewport: PHONE, reducedMotion: "reduce" });

  async function openMenu(page: Page) {
    await page.getByRole("button", { name: /^Menu/ }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation menu" });
    await expect(drawer).toBeVisible();
    return drawer;
  }

  // Issue 56: the offline label and count pushed "Fleet Ops" onto two lines.
  test("the top bar holds on one line in every sync state: synced, offline, offline with changes waiting", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const vehicle = await orderVehicle(request, fleet);
    await signInAs(page, fleet.token);
    await page.goto(`/vehicles/${vehicle.id}/settings`);
    await expect(heading(page)).toHaveText(vehicle.name);
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    expect(await topBarLines(page)).toEqual([]);

    await goOffline(page);
    expect(await topBarLines(page)).toEqual([]);
    await rename(page, "Edited offline");
    await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 1 change will sync when you reconnect");
    await expect(indicator(page).locator(".sync-count")).toHaveText("1");
    expect(await topBarLines(page)).toEqual([]);
  });

  test("the menu carries every section with the Inbox count, and the workspace and account pages", async ({
    page,
    request,
  }) => {
    const fleet = await livelyFleet(request);
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
    // the Inbox's unread alert, plus whatever My actions counts for this fleet at this hour
    // (vehicles driven today without an inspection): the menu says there is something new
    await expect(page.getByRole("button", { name: /^Menu, [1-9]\d* new$/ })).toBeVisible();

    const destinations: [RegExp | string, RegExp, string][] = [
      ["Inbox, 1 unread", /\/inbox$/, "Inbox"],
      [/^My actions/, /\/actions$/, "My actions"],
      ["My day", /\/my-day$/, "My day"],
      ["Vehicles", /\/vehicles$/, "Vehicles"],
      ["Jobs", /\/jobs$/, "Jobs"],
      ["Issues", /\/issues$/, "Issues"],
      ["Inspections", /\/inspections$/, "Inspections"],
      ["Fuel", /\/fuel$/, "Fuel"],
      ["Reports", /\/reports$/, "Reports"],
      ["People", /\/people$/, "People"],
      ["Locations", /\/locations$/, "Locations"],
      ["Team", /\/team$/, "Employees"],
      ["Preferences", /\/workspace$/, "Preferences"],
      ["Settings", /\/settings$/, "Settings"],
    ];
    for (const [name, url, heading] of destinations) {
      const drawer = await openMenu(page);
      await drawer.getByRole("link", { name, exact: typeof name === "string" }).click();
      await expect(page).toHaveURL(url);
      await expect(drawer).toBeHidden();
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
    // Escape closes the menu and gives focus back to its button.
    const drawer = await openMenu(page);
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("button", { name: /^Menu/ })).toBeFocused();
    await openMenu(page);
    await page.getByRole("dialog").getByRole("link", { name: "Map" }).click();
    await expect(page).toHaveURL(/\/map$/);
  });

  test("/map: the panel is a sheet pulled up and down; down, the map keeps more than half the screen", async ({
    page,
    request,
  }) => {
    const fleet = await livelyFleet(request);
    await signInAs(page, fleet.token);
    await page.goto("/map");
    const sheet = page.getByRole("complementary", { name: "Vehicles panel" });
    const handle = sheet.getByRole("button", { name: "Pull the sheet up" });
    await expect(handle).toHaveAttribute("aria-expanded", "false");
    const map = page.getByTestId("fleet-map");
    await expect(map).toHaveAttribute("data-map-ready", "true");

    const down = (await sheet.boundingBox())!;
    const mapBox = (await map.boundingBox())!;
    // The map shows from its top to the sheet's top: at least half the screen.
    expect(down.y - mapBox.y).toBeGreaterThanOrEqual(PHONE.height / 2);
    expect(down.x).toBe(0);
    expect(down.width).toBe(PHONE.width);
    await expect(sheet.getByRole("button", { name: new RegExp(fleet.beacons[0].vehicleName) })).toBeVisible();

    await handle.click();
    await expect(sheet.getByRole("button", { name: "Pull the sheet down" })).toHaveAttribute("aria-expanded", "true");
    await expect.poll(async () => (await sheet.boundingBox())!.height).toBeGreaterThan(PHONE.height * 0.7);
    // Up, it leaves the top 56 px of the map.
    expect((await sheet.boundingBox())!.y).toBeCloseTo(mapBox.y + 56, 0);

    // A finger dragging the handle down puts the sheet back.
    const grip = (await sheet.getByRole("button", { name: "Pull the sheet down" }).boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y + 200, { steps: 5 });
    await page.mouse.up();
    await expect(sheet.getByRole("button", { name: "Pull the sheet up" })).toHaveAttribute("aria-expanded", "false");
    await expect.poll(async () => (await sheet.boundingBox())!.y).toBeGreaterThanOrEqual(mapBox.y + PHONE.height / 2);

    // The selected vehicle's panel is the same sheet.
    await sheet.getByRole("button", { name: new RegExp(fleet.beacons[0].vehicleName) }).click();
    const panel = page.getByRole("complementary", { name: "Vehicle panel" });
    await expect(panel.getByRole("button", { name: "Pull the sheet up" })).toBeVisible();
    expect((await panel.boundingBox())!.y - mapBox.y).toBeGreaterThanOrEqual(PHONE.height / 2);
    expect(await horizontalOverflow(page)).toEqual([]);
  });

  test("vehicles are cards, and a vehicle's page fits the screen", async ({ page, request }) => {
    const fleet = await livelyFleet(request);
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    const first = page.getByRole("row", { name: new RegExp(fleet.beacons[0].vehicleName) });
    await expect(first).toBeVisible();
    // A card: the name on its own line, the other fields labelled under it.
    await expect(page.getByRole("columnheader", { name: "Operator" })).toBeHidden();
    expect((await first.boundingBox())!.height).toBeGreaterThanOrEqual(70);
    await expect(first.getByRole("cell").nth(1)).toHaveAttribute("data-label", "Operator");
    expect(await horizontalOverflow(page)).toEqual([]);

    await first.click();
    await expect(page).toHaveURL(new RegExp(`/vehicles/${fleet.beacons[0].vehicleId}`));
    await expect(page.getByRole("heading", { level: 1, name: fleet.beacons[0].vehicleName })).toBeVisible();
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page.getByLabel("Name")).toBeVisible();
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
  });

  test("the Inbox: the alert is a row a thumb can tap, and the rule form is one column of 44 px controls", async ({
    page,
    request,
  }) => {
    const fleet = await livelyFleet(request);
    await signInAs(page, fleet.token);
    await page.goto("/inbox");
    const row = page.getByRole("button", {
      name: new RegExp(`^Unread: ${fleet.beacons[0].vehicleName}, Entered a place: Depot`),
    });
    await expect(row).toBeVisible();
    expect((await row.boundingBox())!.height).toBeGreaterThanOrEqual(44);

    const form = page.getByRole("form", { name: "New alert rule" });
    await form.getByRole("combobox", { name: "When" }).selectOption("speeding");
    const controls = [
      form.getByRole("combobox", { name: "When" }),
      form.getByLabel("Over (mph)"),
      form.getByLabel("For at least (s)"),
      form.getByLabel("Webhook"),
    ];
    const boxes = await Promise.all(controls.map(async (c) => (await c.boundingBox())!));
    for (const box of boxes) {
      expect(box.height).toBeGreaterThanOrEqual(44);
      // One column: every control starts at the same left edge, one under the other.
      expect(box.x).toBe(boxes[0]!.x);
    }
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.y).toBeGreaterThan(boxes[i - 1]!.y + boxes[i - 1]!.height);
    await form.getByLabel("Over (mph)").fill("45");
    await form.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByText("Speeding over 45 mph for 30 s")).toBeVisible();
    expect(await smallTargets(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // Deleting asks first; Cancel keeps the rule.
    await page.getByRole("button", { name: "Delete rule: Speeding over 45 mph for 30 s" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByText("Speeding over 45 mph for 30 s")).toBeVisible();
    await page.getByRole("button", { name: "Delete rule: Speeding over 45 mph for 30 s" }).click();
    await page.getByRole("button", { name: "Delete rule", exact: true }).click();
    await expect(page.getByText("Speeding over 45 mph for 30 s")).toHaveCount(0);
  });
});

for (const [size, viewport] of [
  ["390", PHONE],
  ["1440", DESKTOP],
] as const) {
  test(`every page at ${size} px: no sideways scrolling, no serious or critical axe-core violation`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const fleet = await livelyFleet(request);
    await signInAs(page, fleet.token);
    const problems: string[] = [];
    for (const { path, heading } of [...appPages(fleet.beacons[0].vehicleId), { path: "/map", heading: "" }]) {
      await page.goto(path);
      if (heading) await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      else await expect(page.getByTestId("fleet-map")).toHaveAttribute("data-map-ready", "true");
      for (const v of await seriousViolations(page)) problems.push(`${path}: ${v}`);
      for (const o of await horizontalOverflow(page)) problems.push(`${path}: overflow ${o}`);
      if (viewport === PHONE) for (const t of await smallTargets(page)) problems.push(`${path}: small target ${t}`);
    }
    expect(problems).toEqual([]);
  });
}

test("at 1440 px every page is reached from the navigation, Reports included", async ({ page, request }) => {
  await page.setViewportSize(DESKTOP);
  const fleet = await livelyFleet(request);
  await signInAs(page, fleet.token);
  // The map writes its view on its element (data-center, data-zoom) when asked to (app/map/map-debug.ts).
  await page.addInitScript(() => (window.__fleetOpsDebug = ["map"]));
  await page.goto("/inbox");
  await expect(page.getByRole("button", { name: /^Menu/ })).toBeHidden();
  const side = page.getByRole("navigation", { name: "Sections" });
  for (const [name, url, heading] of [
    ["Reports", /\/reports$/, "Reports"],
    ["Vehicles", /\/vehicles$/, "Vehicles"],
    ["Locations", /\/locations$/, "Locations"],
  ] as const) {
    await side.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
  // /locations opens on the workspace's places, not on the middle of the country.
  const map = page.locator(".locations-map").getByTestId("fleet-map");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  await expect
    .poll(async () => {
      const [lng, lat] = ((await map.getAttribute("data-center")) ?? "0,0").split(",").map(Number);
      return (
        Math.abs(lng! + 87.63) < 0.01 &&
        Math.abs(lat! - 41.88) < 0.01 &&
        Number(await map.getAttribute("data-zoom")) > 12
      );
    })
    .toBe(true);
});
