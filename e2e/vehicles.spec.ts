import type { APIRequestContext, Page } from "@playwright/test";
import { pullRequest } from "../shared/sync/sync-requests";
import { mphToKnots } from "../shared/units/units";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { decodeSyncedValue } from "../shared/sync/synced-value";
import type { Vehicle } from "../shared/fleet/vehicle";
import { VEHICLE_FIELD_TABLE, vehicleTable } from "../shared/fleet/vehicle-fields";
import type { FieldSpec } from "../shared/fields/field-table";
import { orderVehicles, report, setDriverAndType, setWorkspaceFlag, updateVehicle, type Fleet } from "./ui-helpers";

const KNOTS_60_MPH = mphToKnots(60); // OsmAnd speeds are knots

async function namedFleet(request: APIRequestContext) {
  const fleet = await newFleetAccount(request);
  const [a, b, c] = await orderVehicles(request, fleet, 3);
  await updateVehicle(request, fleet, {
    id: a!.vehicleId,
    name: "Alpha Truck",
    year: 2021,
    make: "Ford",
    model: "F-150",
    vin: "1FTFW1E50PFA12345",
  });
  await updateVehicle(request, fleet, {
    id: b!.vehicleId,
    name: "Bravo SUV",
    year: 2019,
    make: "Honda",
    model: "Pilot",
  });
  await updateVehicle(request, fleet, { id: c!.vehicleId, name: "Charlie" });
  return { fleet, a: a!, b: b!, c: c! };
}

test.describe("/vehicles", () => {
  test("lists vehicles in the specified columns, with dashes and formatted types; the filter narrows it", async ({
    page,
    request,
  }) => {
    const { fleet, a, b } = await namedFleet(request);
    await setDriverAndType(request, fleet, a.vehicleId, "Dana Driver", "PICKUP_TRUCK");
    await setDriverAndType(request, fleet, b.vehicleId, null, "SUV");
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");

    const filter = page.getByRole("searchbox", { name: "Filter vehicles" });
    await expect(filter).toHaveAttribute("placeholder", "Filter by name, vin, make, model, or driver...");
    await expect(page.getByRole("link", { name: "Add Vehicle", exact: true })).toHaveAttribute("href", "/infleet");
    const table = page.getByRole("table", { name: "Vehicles" });
    await expect(table.getByRole("columnheader")).toHaveText(["Vehicles", "Operator", "Year", "Type", "Status"]);

    const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0).getByRole("cell")).toHaveText([
      "Alpha Truck",
      "Dana Driver",
      "2021",
      "Pickup Truck",
      "Active",
    ]);
    await expect(rows.nth(1).getByRole("cell")).toHaveText(["Bravo SUV", "-", "2019", "SUV", "Active"]);
    await expect(rows.nth(2).getByRole("cell")).toHaveText(["Charlie", "-", "-", "-", "Active"]);
    await expect(rows.nth(0)).toHaveAttribute("href", `/vehicles/${a.vehicleId}`);

    for (const [query, names] of [
      ["bravo", ["Bravo SUV"]],
      ["1ftfw1e5", ["Alpha Truck"]], // VIN
      ["honda", ["Bravo SUV"]], // make
      ["f-150", ["Alpha Truck"]], // model
      ["dana", ["Alpha Truck"]], // driver
      ["nothing like it", []],
    ] as const) {
      await filter.fill(query);
      await expect(rows.locator("[role=cell]:first-child")).toHaveText([...names]);
    }
    await expect(page.getByText("No vehicle matches “nothing like it”.")).toBeVisible();
    await filter.fill("");
    await expect(rows).toHaveCount(3);

    await rows.nth(1).click();
    await expect(page).toHaveURL(new RegExp(`/vehicles/${b.vehicleId}/overview$`));
  });

  test("rows can be walked with the arrow keys and opened with Enter", async ({ page, request }) => {
    const { fleet, b } = await namedFleet(request);
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    const rows = page
      .getByRole("table", { name: "Vehicles" })
      .getByRole("row")
      .filter({ has: page.getByRole("cell") });
    await expect(rows).toHaveCount(3);
    await page.getByRole("searchbox", { name: "Filter vehicles" }).press("ArrowDown");
    await expect(rows.nth(0)).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(rows.nth(1)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/vehicles/${b.vehicleId}/overview$`));
  });

  test("a long list renders only the rows in view, and the keyboard still reaches the last one", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const beacons = await orderVehicles(request, fleet, 100);
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    const table = page.getByRole("table", { name: "Vehicles" });
    await expect(table).toHaveAttribute("aria-rowcount", "101");
    const rows = table.getByRole("row").filter({ has: page.getByRole("cell") });
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeLessThan(60);
    await page.getByRole("searchbox", { name: "Filter vehicles" }).press("ArrowDown");
    for (let i = 1; i < 100; i++) await page.keyboard.press("ArrowDown");
    const lastRow = table.getByRole("row", { name: /^Vehicle 100\b/ });
    await expect(lastRow).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/vehicles/${beacons[99]!.vehicleId}/overview$`));
  });

  test("an empty fleet explains how to add vehicles", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    await expect(page.getByText("Your fleet is empty.")).toBeVisible();
    await page.getByRole("link", { name: "Add vehicles" }).click();
    await expect(page).toHaveURL(/\/infleet$/);
    await expect(page.getByRole("heading", { name: "Add Vehicle To Fleet" })).toBeVisible();
  });
});

test.describe("/vehicles/{id}", () => {
  async function openVehicle(page: Page, fleet: Fleet, id: string, tab = "") {
    await signInAs(page, fleet.token);
    await page.goto(`/vehicles/${id}${tab}`);
  }

  test("the index goes to Overview; the header shows name, status dot, year, make, model and VIN", async ({
    page,
    request,
  }) => {
    const { fleet, a } = await namedFleet(request);
    await report(request, a.id, { lat: 40, lon: -100, speed: KNOTS_60_MPH, ignition: true });
    await openVehicle(page, fleet, a.vehicleId);
    await expect(page).toHaveURL(new RegExp(`/vehicles/${a.vehicleId}/overview$`));
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText("Vehicles / Alpha Truck");
    const header = page.locator(".vehicle-header");
    await expect(header.getByRole("heading", { name: "Alpha Truck" })).toBeVisible();
    await expect(header.getByRole("img", { name: "Ignition on" })).toHaveCSS("background-color", "rgb(22, 163, 74)");
    await expect(header).toContainText("2021 · Ford · F-150 · 1FTFW1E50PFA12345");
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Vehicles" }).click();
    await expect(page).toHaveURL(/\/vehicles$/);
  });

  test("the header shows only the known parts of year, make, model and VIN, and points to Settings when none is", async ({
    page,
    request,
  }) => {
    const { fleet, b, c } = await namedFleet(request);
    await openVehicle(page, fleet, b.vehicleId);
    const header = page.locator(".vehicle-header");
    await expect(header.getByRole("heading", { name: "Bravo SUV" })).toBeVisible();
    await expect(header.locator("p")).toHaveText("2019 · Honda · Pilot");

    await page.goto(`/vehicles/${c.vehicleId}`);
    await expect(header.getByRole("heading", { name: "Charlie" })).toBeVisible();
    await expect(header).not.toContainText("-");
    await header.getByRole("link", { name: "Add year, make, model and VIN in Settings" }).click();
    await expect(page).toHaveURL(new RegExp(`/vehicles/${c.vehicleId}/settings$`));
    await expect(page.getByRole("heading", { name: "Vehicle Settings" })).toBeVisible();
  });

  test("clicking the VIN copies it: tooltip Click to copy, toast VIN has been copied that soon goes", async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const { fleet, a } = await namedFleet(request);
    await openVehicle(page, fleet, a.vehicleId, "/overview");
    const vin = page.getByRole("button", { name: "VIN 1FTFW1E50PFA12345" });
    await vin.hover();
    await expect(page.getByRole("tooltip")).toHaveText("Click to copy");
    await vin.click();
    const toast = page.getByText("VIN has been copied");
    await expect(toast).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("1FTFW1E50PFA12345");
    // Shown for 1.5 s: gone well before the 4 s every other toast stays.
    await expect(toast).toBeHidden({ timeout: 3500 });
  });

  test("Overview: collapsible Telemetry with ticking time in status, mph, miles and fuel", async ({
    page,
    request,
  }) => {
    const { fleet, a } = await namedFleet(request);
    const start = Date.now() - 5 * 60_000;
    await report(request, a.id, {
      lat: 40,
      lon: -100,
      speed: KNOTS_60_MPH,
      ignition: true,
      timestamp: start,
      fuel: 80,
      odometer: 1_609_344 * 12.3,
    });
    await report(request, a.id, {
      lat: 40.01,
      lon: -100,
      speed: KNOTS_60_MPH,
      ignition: true,
      timestamp: start + 60_000,
      fuel: 70,
      odometer: 1_609_344 * 12.345,
    });
    await page.clock.install();
    await openVehicle(page, fleet, a.vehicleId, "/overview");

    const toggle = page.getByRole("button", { name: "Telemetry" });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByTestId("speed")).toHaveText("60 mph");
    await expect(page.getByTestId("odometer")).toHaveText("12,345 mi");
    await expect(page.getByTestId("fuel")).toHaveText("70%");
    // Small charts of the recent history, one point per report.
    const speedChart = page.getByRole("img", { name: /^Speed over the last 24 hours/ });
    await expect(speedChart).toBeVisible();
    await expect(speedChart.locator("polyline")).toHaveAttribute("data-points", "2");
    await expect(page.getByRole("img", { name: /^Fuel over the last 24 hours.*80% to 70%/ })).toBeVisible();

    await expect(page.getByTestId("time-in-status")).toHaveText(/^0h [45]m$/);
    await page.clock.fastForward("02:00:00");
    await expect(page.getByTestId("time-in-status")).toHaveText(/^2h [45]m$/);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("speed")).toBeHidden();
    await toggle.click();
    await expect(page.getByTestId("speed")).toBeVisible();
  });

  test("Overview without reports says so instead of showing numbers", async ({ page, request }) => {
    const { fleet, c } = await namedFleet(request);
    await openVehicle(page, fleet, c.vehicleId, "/overview");
    await expect(page.getByText("No telemetry yet: the beacon has not reported.")).toBeVisible();
    await expect(page.locator(".vehicle-header").getByRole("img", { name: "Ignition off" })).toBeVisible();
    await expect(
      page.locator(".vehicle-header").getByRole("link", { name: "Add year, make, model and VIN in Settings" }),
    ).toBeVisible();
  });

  test("Service shows schedules and history, Inspections the history, Issues the vehicle's issues", async ({
    page,
    request,
  }) => {
    const { fleet, a } = await namedFleet(request);
    await openVehicle(page, fleet, a.vehicleId, "/overview");
    const tabs = page.getByRole("navigation", { name: "Vehicle sections" });
    await tabs.getByRole("link", { name: "Service" }).click();
    await expect(page).toHaveURL(new RegExp(`/vehicles/${a.vehicleId}/service$`));
    await expect(page.getByText("No schedules yet.")).toBeVisible();
    await expect(page.getByText("No service logged in the last 90 days.")).toBeVisible();
    await tabs.getByRole("link", { name: "Inspections" }).click();
    await expect(page).toHaveURL(new RegExp(`/vehicles/${a.vehicleId}/inspections$`));
    await expect(page.getByText("No inspections in the last 7 days.")).toBeVisible();
    await tabs.getByRole("link", { name: "Issues" }).click();
    await expect(page).toHaveURL(new RegExp(`/vehicles/${a.vehicleId}/issues$`));
    await expect(page.getByText("No issues match these filters.")).toBeVisible();
  });

  test("feature flags switch the Decode button and the Overview charts off for one workspace", async ({
    page,
    request,
  }) => {
    const { fleet, c } = await namedFleet(request);
    await setWorkspaceFlag(fleet.workspaceId, "vinDecode", false);
    await setWorkspaceFlag(fleet.workspaceId, "telemetryCharts", false);
    await report(request, c.id, { lat: 40, lon: -100, speed: KNOTS_60_MPH, ignition: true });
    await openVehicle(page, fleet, c.vehicleId, "/settings");
    await page.getByRole("group", { name: "Vehicle Identification" }).getByLabel("VIN").fill("1HGCM82633A004352");
    await expect(page.getByRole("button", { name: "Update" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Decode" })).toHaveCount(0);
    // The vehicle's own Overview tab, not the fleet's Overview in the navigation.
    await page.getByRole("navigation", { name: "Vehicle sections" }).getByRole("link", { name: "Overview" }).click();
    await expect(page.getByTestId("speed")).toBeVisible();
    await expect(page.getByText(/Loading history|No history|Speed, last 24 hours/)).toHaveCount(0);
  });

  test("Settings: Decode appears only for a changed VIN and fills empty Year and Make; Update persists", async ({
    page,
    request,
  }) => {
    const { fleet, c } = await namedFleet(request);
    await openVehicle(page, fleet, c.vehicleId, "/settings");
    await expect(page.getByRole("heading", { name: "Vehicle Settings" })).toBeVisible();
    const group = page.getByRole("group", { name: "Vehicle Identification" });
    await expect(group.getByLabel("Vehicle Name")).toHaveValue("Charlie");
    const vin = group.getByLabel("VIN");
    const decode = page.getByRole("button", { name: "Decode" });
    await expect(decode).toHaveCount(0);

    await group.getByLabel("Model").fill("Accord");
    await group.getByLabel("Make").fill("Acme"); // not empty: Decode must keep it
    await vin.fill("1HGCM82633A004352");
    await expect(decode).toBeVisible();
    await decode.click();
    await expect(group.getByLabel("Year")).toHaveValue("2003");
    await expect(group.getByLabel("Make")).toHaveValue("Acme");
    await group.getByLabel("Make").fill("");
    await decode.click();
    await expect(group.getByLabel("Make")).toHaveValue("Honda");
    await expect(group.getByLabel("Year")).toHaveAttribute("type", "number");

    await group.getByLabel("Vehicle Name").fill("Charlie Sedan");
    await page.getByRole("button", { name: "Update" }).click();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText("Vehicles / Charlie Sedan");
    await expect(page.locator(".vehicle-header")).toContainText("2003 · Honda · Accord · 1HGCM82633A004352");
    // Saved on the server, not only in this tab: a fresh load shows it, and Decode is gone again.
    await expect
      .poll(async () => {
        const res = await request.post("/api/sync/pull", {
          headers: { Authorization: `Bearer ${fleet.token}` },
          data: pullRequest(),
        });
        const { patch } = (await res.json()) as { patch: { key?: string; value?: unknown }[] };
        const key = `vehicle/${c.vehicleId}`;
        const put = patch.find((p) => p.key === key);
        return put ? (decodeSyncedValue(key, put.value) as Vehicle).name : undefined;
      })
      .toBe("Charlie Sedan");
    await page.reload();
    await expect(group.getByLabel("Vehicle Name")).toHaveValue("Charlie Sedan");
    await expect(group.getByLabel("VIN")).toHaveValue("1HGCM82633A004352");
    await expect(decode).toHaveCount(0);
  });

  test("Settings shows validation messages and saves nothing invalid", async ({ page, request }) => {
    const { fleet, a } = await namedFleet(request);
    await openVehicle(page, fleet, a.vehicleId, "/settings");
    const group = page.getByRole("group", { name: "Vehicle Identification" });
    await expect(group.getByLabel("Vehicle Name")).toHaveValue("Alpha Truck");
    await group.getByLabel("Vehicle Name").fill("");
    await group.getByLabel("Year").fill("1800");
    await group.getByLabel("VIN").fill("NOT-A-VIN");
    await page.getByRole("button", { name: "Update" }).click();
    await expect(group.getByText("Required")).toBeVisible();
    await group.getByLabel("Vehicle Name").fill("Alpha");
    await page.getByRole("button", { name: "Update" }).click();
    await expect(group.getByText("Enter a year between 1900 and 2100")).toBeVisible();
    await expect(group.getByText("A VIN is 17 letters and digits (no I, O or Q)")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText("Vehicles / Alpha Truck");
  });

  /** A field added to the vehicle table (docs/decisions/0105) is typed here with no new test. */
  test("each input of the Settings form is a vehicle table field, saved by Update and kept by the server", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    const [ordered] = await orderVehicles(request, fleet, 1);
    const id = ordered!.vehicleId;
    await openVehicle(page, fleet, id, "/settings");
    const group = page.getByRole("group", { name: "Vehicle Identification" });
    await expect(group.getByLabel("Vehicle Name")).toHaveValue("Vehicle 1");
    const table: Record<string, FieldSpec> = VEHICLE_FIELD_TABLE;
    const typed: Record<string, string | number> = {};
    for (const { name, label } of vehicleTable.formFields) {
      typed[name] = table[name]!.example;
      await group.getByLabel(label, { exact: true }).fill(String(typed[name]));
    }
    await page.getByRole("button", { name: "Update" }).click();
    const headers = { Authorization: `Bearer ${fleet.token}` };
    await expect.poll(async () => (await request.get(`/api/vehicles/${id}`, { headers })).json()).toMatchObject(typed);
    await page.reload();
    for (const { name, label } of vehicleTable.formFields)
      await expect(group.getByLabel(label, { exact: true })).toHaveValue(String(typed[name]));
  });
});
