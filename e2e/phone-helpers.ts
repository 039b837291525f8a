import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { newFleetAccount } from "./helpers";
import { orderVehicles, report, type OrderedBeacon } from "./ui-helpers";

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };

/**
 * A workspace with something on every page: two reporting vehicles in Chicago, a place, a rule on
 * it and an alert (the first vehicle drove into the place), all through the public API.
 */
export async function livelyFleet(request: APIRequestContext) {
  const fleet = await newFleetAccount(request);
  const beacons = await orderVehicles(request, fleet, 2);
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const place = await request.post("/api/places", {
    headers: auth,
    data: { name: "Depot", geometry: { type: "Circle", center: [-87.63, 41.88], radius: 150 } },
  });
  expect(place.status()).toBe(201);
  const rule = await request.post("/api/alert-rules", {
    headers: auth,
    data: { type: "place_enter", placeId: null, vehicleIds: null },
  });
  expect(rule.status()).toBe(201);
  const t0 = Date.now() - 60_000;
  for (const [i, b] of beacons.entries()) {
    await report(request, b.id, { lat: 41.87 - i * 0.01, lon: -87.63, timestamp: t0, ignition: true, speed: 20 });
  }
  await report(request, beacons[0]!.id, {
    lat: 41.8801,
    lon: -87.63,
    timestamp: t0 + 20_000,
    ignition: true,
    speed: 5,
  });
  return { ...fleet, beacons: beacons as [OrderedBeacon, OrderedBeacon] };
}

/** Every page of the signed-in app, as a user reaches it from the navigation (vehicle pages need an id). */
export function appPages(vehicleId: string): { path: string; heading: string | RegExp }[] {
  return [
    { path: "/overview", heading: "Overview" },
    { path: "/inbox", heading: "Inbox" },
    { path: "/actions", heading: "My actions" },
    { path: "/vehicles", heading: "Vehicles" },
    { path: `/vehicles/${vehicleId}/overview`, heading: /Vehicle \d+/ },
    { path: `/vehicles/${vehicleId}/settings`, heading: /Vehicle \d+/ },
    { path: "/issues", heading: "Issues" },
    { path: "/inspections", heading: "Inspections" },
    { path: "/fuel", heading: "Fuel" },
    { path: `/vehicles/${vehicleId}/fuel`, heading: /Vehicle \d+/ },
    { path: `/vehicles/${vehicleId}/costs`, heading: /Vehicle \d+/ },
    { path: "/reports", heading: "Reports" },
    { path: "/people", heading: "People" },
    { path: "/locations", heading: "Locations" },
    { path: "/team", heading: "Employees" },
    { path: "/workspace", heading: "Preferences" },
    { path: "/settings", heading: "Settings" },
    { path: "/infleet", heading: "Add Vehicle To Fleet" },
  ];
}

/** Serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Colours read mid-fade (a toast sliding in) are not what a user reads: axe looks once nothing
  // finite is animating (a spinner's endless turn does not count).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
  );
  // Toasts come and go on their own ("Ready to work offline" as the service worker takes over, at
  // any moment of a first visit): one appearing between that wait and axe's read is read mid-fade.
  // They are sonner's own dark text on white.
  const results = await new AxeBuilder({ page }).exclude(".mapboxgl-canvas").exclude("[data-sonner-toaster]").analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/** Whether anything makes the page, or the app's scrolling main area, scroll sideways. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of [document.scrollingElement, document.querySelector(".app-main")]) {
      if (el && el.scrollWidth > el.clientWidth + 1)
        out.push(`${el.tagName}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    // Anything drawn past the screen's right edge (and not inside something that clips it).
    for (const el of Array.from(document.querySelectorAll<HTMLElement>("main *"))) {
      const box = el.getBoundingClientRect();
      if (
        box.width &&
        box.right > width + 1 &&
        el.checkVisibility() &&
        !el.closest(".report-table-wrap, .mapboxgl-map, dialog:not([open])")
      ) {
        out.push(`${el.tagName}.${el.className}: right ${Math.round(box.right)} > ${width}`);
      }
    }
    return out.slice(0, 5);
  });
}

/** Buttons, inputs and selects on screen narrower or lower than a thumb's 44 px. */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(
      document.querySelectorAll<HTMLElement>(
        "button, input:not([type=checkbox]):not([type=radio]):not([type=range]), select, textarea, .button",
      ),
    )) {
      if (!el.checkVisibility() || el.closest(".mapboxgl-map, .sheet-handle, .sr-only")) continue;
      const box = el.getBoundingClientRect();
      if (box.width < 44 || box.height < 44)
        out.push(
          `${el.tagName} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}": ${Math.round(box.width)}x${Math.round(box.height)}`,
        );
    }
    return out.slice(0, 8);
  });
}
