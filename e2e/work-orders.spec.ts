import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { TableFormField } from "../app/components/table-inputs";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator, orderVehicle } from "./sync-helpers";
import { DEFAULT_PRE_TRIP_ITEMS } from "../shared/maintenance/inspections";
import { WORK_ORDER_FIELD_TABLE, workOrderTable } from "../shared/maintenance/work-order-fields";
import { PART_FIELD_TABLE, partTable } from "../shared/maintenance/part-fields";
import { VENDOR_FIELD_TABLE, vendorTable } from "../shared/maintenance/vendor-fields";

/**
 * Work orders (issue 55): from an issue's page to a costed repair. "Create work order", a labour
 * line and a part from stock, Complete; the issue shows resolved and the stock went down.
 */
test("an issue becomes a work order with a labour and a part line; completing it resolves the issue and takes the part", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Shop Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  const issue = await request.post("/api/issues", {
    headers,
    data: { vehicleId: vehicle.id, title: "Front brakes grinding", priority: "high" },
  });
  expect(issue.status()).toBe(201);
  const { id: issueId } = (await issue.json()) as { id: string };
  const part = await request.post("/api/parts", {
    headers,
    data: { name: "Brake pads", unitCostCents: 4_500, quantityOnHand: 5, reorderPoint: 1 },
  });
  expect(part.status()).toBe(201);

  await signInAs(page, fleet.token);
  await page.goto(`/issues/${issueId}`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await page.getByRole("button", { name: "Create work order" }).click();
  await expect(page).toHaveURL(/\/work-orders\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Front brakes grinding");

  const add = page.getByRole("form", { name: "Add a line" });
  await add.getByRole("spinbutton", { name: "Hours" }).fill("1.5");
  await add.getByRole("spinbutton", { name: "Rate ($/h)" }).fill("95.50");
  await add.getByRole("button", { name: "Add line" }).click();
  const lines = page.getByRole("table", { name: "Lines" });
  await expect(lines).toContainText("$143.25");

  await add.getByRole("combobox", { name: /^Kind/ }).selectOption("part");
  await add.getByRole("combobox", { name: /^Part/ }).selectOption({ label: "Brake pads (5 on hand)" });
  await expect(add.getByRole("spinbutton", { name: "Unit cost ($)" })).toHaveValue("45");
  await add.getByRole("spinbutton", { name: "Quantity" }).fill("2");
  await add.getByRole("button", { name: "Add line" }).click();
  await expect(lines).toContainText("$90.00");
  await expect(page.getByRole("definition").filter({ hasText: "$233.25" })).toBeVisible();

  const complete = page.getByRole("form", { name: "Complete" });
  await complete.getByLabel("Signed").fill("Sam Mechanic");
  await complete.getByRole("button", { name: "Complete" }).click();
  await expect(page.getByRole("region", { name: "Completion" })).toContainText("by Sam Mechanic");
  await expect(page.getByRole("button", { name: "Reopen" })).toBeVisible();
  // What the user guide shows: the completed order on a desktop and on a phone.
  const orderUrl = page.url();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("work-order-1440.png"), fullPage: true });
  // the server applied it: the next pull brings its number and the issue's new status
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");

  await page.goto(`/issues/${issueId}`);
  await expect(page.locator("#issue-status")).toHaveValue("resolved");
  await page.goto("/parts");
  await expect(page.getByLabel("Brake pads on hand")).toHaveValue("3");
  const server = (await (await request.get("/api/parts", { headers })).json()) as {
    parts: { quantityOnHand: number }[];
  };
  expect(server.parts[0]!.quantityOnHand).toBe(3);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(orderUrl);
  await expect(page.getByRole("button", { name: "Reopen" })).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await page.screenshot({ path: testInfo.outputPath("work-order-390.png"), fullPage: true });
});

test("lines keep the order they were added, on the page that added them and after a reload", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const fleet = await newFleetAccount(request, "Order Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const created = await request.post("/api/work-orders", {
    headers: { Authorization: `Bearer ${fleet.token}` },
    data: { vehicleId: vehicle.id },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await signInAs(page, fleet.token);
  await page.goto(`/work-orders/${id}`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const add = page.getByRole("form", { name: "Add a line" });
  const added = ["Drain oil", "Oil filter", "Check brakes", "Rotate tyres", "Road test"];
  const lines = page.getByRole("table", { name: "Lines" });
  for (const [i, description] of added.entries()) {
    await add.getByRole("textbox", { name: "Description" }).fill(description);
    await add.getByRole("spinbutton", { name: "Hours" }).fill("1");
    await add.getByRole("spinbutton", { name: "Rate ($/h)" }).fill("10");
    await add.getByRole("button", { name: "Add line" }).click();
    await expect(lines.locator("tbody tr")).toHaveCount(i + 1);
  }
  const whats = lines.locator("tbody tr td:nth-child(2)");
  await expect(whats).toHaveText(added);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await page.reload();
  await expect(whats).toHaveText(added);
  const answer = (await (
    await request.get(`/api/work-orders/${id}`, { headers: { Authorization: `Bearer ${fleet.token}` } })
  ).json()) as { lines: { description: string }[] };
  expect(answer.lines.map((l) => l.description)).toEqual(added);
});

/** The form's inputs are the table's (shared/maintenance/work-order-fields.ts): a field added there is asked for and kept. */
test("the New work order form on a vehicle's tab asks for each table field it lists, the order keeps what was typed, its page edits them later and deletes it once confirmed", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const fleet = await newFleetAccount(request, "Form Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/work-orders`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await page.getByRole("button", { name: "New work order" }).click();
  const form = page.getByRole("form", { name: "New work order" });
  for (const { label, name } of workOrderTable.formFields)
    await form.getByLabel(label, { exact: true }).fill(String(WORK_ORDER_FIELD_TABLE[name].example));
  await form.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/work-orders\/[0-9a-f-]{36}$/);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const id = page.url().split("/").pop()!;
  const typed = Object.fromEntries(
    workOrderTable.formFields.map((f) => [f.name, WORK_ORDER_FIELD_TABLE[f.name].example]),
  );
  // the server's copy, once the push has reached it
  await expect
    .poll(async () => {
      const res = await request.get(`/api/work-orders/${id}`, { headers: { Authorization: `Bearer ${fleet.token}` } });
      return res.ok() ? ((await res.json()) as Record<string, unknown>) : {};
    })
    .toMatchObject(typed);

  // Later, on the order's page: the same fields, starting from what is kept, saved through sync.
  const details = page.getByRole("form", { name: "Work order details" });
  const edited = Object.fromEntries(
    workOrderTable.formFields.map((f) => [
      f.name,
      f.type === "date" ? "2031-06-03" : `${typed[f.name]}, and the discs`,
    ]),
  );
  for (const { label, name } of workOrderTable.formFields) {
    const input = details.getByLabel(label, { exact: true });
    await expect(input).toHaveValue(String(typed[name]));
    await input.fill(edited[name]!);
  }
  await details.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(String(edited.description));
  await expect
    .poll(async () => {
      const res = await request.get(`/api/work-orders/${id}`, { headers: { Authorization: `Bearer ${fleet.token}` } });
      return (await res.json()) as Record<string, unknown>;
    })
    .toMatchObject(edited);

  // Deleting asks first: Cancel keeps it; confirmed, it is gone from the server too.
  await page.getByRole("button", { name: "Delete work order" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(String(edited.description));
  await page.getByRole("button", { name: "Delete work order" }).click();
  await page
    .getByRole("group", { name: "Delete this work order and its lines?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page).toHaveURL(/\/work-orders$/);
  await expect
    .poll(async () =>
      (await request.get(`/api/work-orders/${id}`, { headers: { Authorization: `Bearer ${fleet.token}` } })).status(),
    )
    .toBe(404);
});

/**
 * Another device saves the order while the details are being typed: what is typed stays, the field
 * not typed in follows the other device's change, and Save keeps both (the form used to remount on
 * every change of the kept values, throwing the typing away).
 */
test("typing in a work order's details survives another device's change, which shows in the field not typed in; Save keeps both", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const fleet = await newFleetAccount(request, "Draft Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  const created = await request.post("/api/work-orders", {
    headers,
    data: { vehicleId: vehicle.id, description: "Replace wipers", dueDate: "2031-01-10" },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await signInAs(page, fleet.token);
  await page.goto(`/work-orders/${id}`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const details = page.getByRole("form", { name: "Work order details" });
  const description = details.getByLabel(WORK_ORDER_FIELD_TABLE.description.form!.label, { exact: true });
  const dueDate = details.getByLabel(WORK_ORDER_FIELD_TABLE.dueDate.form!.label, { exact: true });
  await description.fill("Replace wipers and washer pump");

  const other = await request.patch(`/api/work-orders/${id}`, { headers, data: { dueDate: "2031-02-20" } });
  expect(other.status()).toBe(200);
  await expect(dueDate).toHaveValue("2031-02-20");
  await expect(description).toHaveValue("Replace wipers and washer pump");

  await details.getByRole("button", { name: "Save details" }).click();
  await expect
    .poll(
      async () => (await (await request.get(`/api/work-orders/${id}`, { headers })).json()) as Record<string, unknown>,
    )
    .toMatchObject({ description: "Replace wipers and washer pump", dueDate: "2031-02-20" });
  // Saved, the form follows the kept values again: a later change elsewhere shows in both fields.
  await request.patch(`/api/work-orders/${id}`, { headers, data: { description: "Wipers done" } });
  await expect(description).toHaveValue("Wipers done");
});

/**
 * The Add a part and Add a vendor forms' inputs are the tables' (shared/maintenance/part-fields.ts,
 * vendor-fields.ts): a field added there is asked for and kept. A scaled input is typed in its unit
 * (the unit cost in dollars) and kept in the field's (cents).
 */
test("the Add a part and Add a vendor forms ask for each table field they list, the server keeps what was typed, Edit changes it in place and Delete asks first", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const fleet = await newFleetAccount(request, "Stock Fleet");
  await signInAs(page, fleet.token);
  await page.goto("/parts");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const forms = [
    {
      form: "Add a part",
      button: "Add part",
      path: "/api/parts",
      fields: partTable.formFields,
      table: PART_FIELD_TABLE,
    },
    {
      form: "Add a vendor",
      button: "Add vendor",
      path: "/api/vendors",
      fields: vendorTable.formFields,
      table: VENDOR_FIELD_TABLE,
    },
  ];
  for (const { form: name, button, path, fields, table } of forms) {
    const form = page.getByRole("form", { name });
    const typed: Record<string, string | number> = {};
    for (const { name: field, label, scale } of fields) {
      const example = (table as Record<string, { example: string | number }>)[field]!.example;
      typed[field] = example;
      await form.getByLabel(label, { exact: true }).fill(String(scale ? Number(example) / scale : example));
    }
    if (name === "Add a part") await form.getByLabel("On hand", { exact: true }).fill("7");
    await form.getByRole("button", { name: button }).click();
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    // the server's copy, once the push has reached it
    await expect
      .poll(async () => {
        const res = await request.get(path, { headers: { Authorization: `Bearer ${fleet.token}` } });
        const answer = res.ok() ? ((await res.json()) as Record<string, Record<string, unknown>[]>) : {};
        return Object.values(answer)[0]?.[0] ?? {};
      })
      .toMatchObject(typed);
    await editedAndDeleted(page, request, fleet.token, { path, fields, typed });
  }
});

/**
 * A part's or vendor's Edit: the same table inputs, starting from what is kept (a scaled one in its
 * unit), each changed and saved through sync; then Delete, which asks first.
 */
async function editedAndDeleted(
  page: Page,
  request: APIRequestContext,
  token: string,
  { path, fields, typed }: { path: string; fields: readonly TableFormField[]; typed: Record<string, string | number> },
) {
  const name = String(typed.name);
  await page.getByRole("button", { name: `Edit ${name}` }).click();
  const form = page.getByRole("form", { name: `Edit ${name}` });
  const edited: Record<string, string | number> = {};
  for (const { name: field, label, type, scale } of fields) {
    const input = form.getByLabel(label, { exact: true });
    await expect(input).toHaveValue(String(scale ? Number(typed[field]) / scale : typed[field]));
    const value =
      type === "number"
        ? Number(typed[field]) + (scale ?? 1)
        : type === "email"
          ? "edited@example.com"
          : `${typed[field]} 2`;
    edited[field] = value;
    await input.fill(String(scale ? Number(value) / scale : value));
  }
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toHaveCount(0);
  const listed = async () => {
    const res = await request.get(path, { headers: { Authorization: `Bearer ${token}` } });
    return Object.values((await res.json()) as Record<string, Record<string, unknown>[]>)[0] ?? [];
  };
  await expect.poll(async () => (await listed())[0] ?? {}).toMatchObject(edited);

  const newName = String(edited.name);
  await page.getByRole("button", { name: `Delete ${newName}` }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: `Delete ${newName}` }).click();
  await page.getByRole("button", { name: /^Delete (part|vendor)$/ }).click();
  await expect.poll(async () => (await listed()).length).toBe(0);
}

test("in a metric workspace that requires lines (set in Preferences): Complete waits for a line and says why; the odometer is typed and shown in km", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const fleet = await newFleetAccount(request, "Metric Shop");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const prefs = await request.patch("/api/workspace/preferences", {
    headers,
    data: { units: "metric" },
  });
  expect(prefs.status()).toBe(200);
  const vehicle = await orderVehicle(request, fleet);
  const created = await request.post("/api/work-orders", { headers, data: { vehicleId: vehicle.id } });
  const { id } = (await created.json()) as { id: string };
  await signInAs(page, fleet.token);
  // The owner requires lines in Preferences.
  await page.goto("/workspace");
  const linesPreference = page.getByRole("form", { name: "Work order lines" });
  await linesPreference.getByRole("combobox", { name: "Work order lines" }).selectOption("on");
  await linesPreference.getByRole("button", { name: "Save" }).click();
  await expect(linesPreference.getByRole("status")).toHaveText("Saved");
  expect(await (await request.get("/api/workspace/preferences", { headers })).json()).toMatchObject({
    units: "metric",
    workOrderLinesRequired: true,
  });
  await page.goto(`/work-orders/${id}`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const complete = page.getByRole("form", { name: "Complete" });
  const button = complete.getByRole("button", { name: "Complete" });
  await expect(button).toBeDisabled();
  await expect(complete).toContainText("Add a labour or part line first: this workspace requires one");

  const add = page.getByRole("form", { name: "Add a line" });
  await add.getByRole("spinbutton", { name: "Hours" }).fill("1");
  await add.getByRole("spinbutton", { name: "Rate ($/h)" }).fill("80");
  await add.getByRole("button", { name: "Add line" }).click();
  await expect(button).toBeEnabled();
  await expect(complete).not.toContainText("Add a labour or part line first");
  // typed in km, kept in miles (16,093.4 km is 9,999.98 mi)
  await complete.getByLabel(/^Odometer \(km;/).fill("16093.4");
  await button.click();
  await expect(page.getByRole("region", { name: "Completion" })).toContainText("at 16,093 km");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const order = (await (await request.get(`/api/work-orders/${id}`, { headers })).json()) as {
    status: string;
    odometerMiles: number;
  };
  expect(order.status).toBe("completed");
  expect(order.odometerMiles).toBeCloseTo(16_093.4 / 1.609344, 6);
});

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

test("a due schedule and a failed inspection each become a work order gathering them, from the Service tab, My actions and the inspections", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Due Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  for (const name of ["Oil change", "Tyre rotation"]) {
    const schedule = await request.post("/api/service-schedules", {
      headers,
      data: { vehicleId: vehicle.id, name, everyDays: 30, lastDoneAt: daysAgo(40) },
    });
    expect(schedule.status()).toBe(201);
  }
  const results = DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: i.id !== "horn" }));
  const inspection = await request.post("/api/inspections", {
    headers,
    data: { formId: `${fleet.workspaceId}:pre-trip`, vehicleId: vehicle.id, signedName: "Robin Driver", results },
  });
  expect(inspection.status()).toBe(201);
  await signInAs(page, fleet.token);

  // The Service tab: an overdue schedule's "Create work order" opens an order gathering it.
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const schedules = page.getByRole("region", { name: "Service schedules" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await schedules.screenshot({ path: testInfo.outputPath("due-schedule-1440.png") });
  await schedules.getByRole("button", { name: "Create work order: Oil change" }).click();
  await expect(page).toHaveURL(/\/work-orders\/[0-9a-f-]{36}$/);
  const gathers = page.getByRole("region", { name: "What it gathers" });
  await expect(gathers).toContainText("Service: Oil change");
  await expect(gathers).not.toContainText("Tyre rotation");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Oil change");

  // My actions: the schedule already on an order links to it; the other one gets its own order.
  await page.goto("/actions");
  const due = page.getByRole("region", { name: "Service due" });
  await expect(due.getByRole("link", { name: /^Work order/ })).toHaveCount(1);
  await due.getByRole("button", { name: `Create work order: ${vehicle.name}: Tyre rotation` }).click();
  await expect(gathers).toContainText("Service: Tyre rotation");
  await page.goto("/actions");
  await expect(due.getByRole("link", { name: /^Work order/ })).toHaveCount(2);
  await expect(due.getByRole("button", { name: /^Create work order/ })).toHaveCount(0);

  // The failed inspection: an order gathering the issue its failed item opened.
  await page.goto(`/vehicles/${vehicle.id}/inspections`);
  const inspections = page.getByRole("list", { name: "Inspections" });
  await inspections.screenshot({ path: testInfo.outputPath("failed-inspection-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await inspections.screenshot({ path: testInfo.outputPath("failed-inspection-390.png") });
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await schedules.screenshot({ path: testInfo.outputPath("due-schedule-390.png") });
  await page.goto(`/vehicles/${vehicle.id}/inspections`);
  await inspections.getByRole("button", { name: `Create work order: ${vehicle.name}'s failed inspection` }).click();
  await expect(gathers).toContainText("Horn: failed inspection");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const listed = (await (await request.get("/api/work-orders", { headers })).json()) as {
    workOrders: { issueIds: string[]; scheduleIds: string[] }[];
  };
  expect(listed.workOrders.map((o) => [o.issueIds.length, o.scheduleIds.length]).sort()).toEqual([
    [0, 1],
    [0, 1],
    [1, 0],
  ]);
});

// A 1×1 PNG: what a phone's camera hands the page, only smaller.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

test("a mechanic completes a work order on a phone with no signal, with a photo of the work and a signature; both reach the server with the signal", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Signed Fleet");
  const headers = { Authorization: `Bearer ${fleet.token}` };
  const vehicle = await orderVehicle(request, fleet);
  const created = await request.post("/api/work-orders", {
    headers,
    data: { vehicleId: vehicle.id, description: "Replace wiper blades" },
  });
  const { id } = (await created.json()) as { id: string };
  const line = await request.post(`/api/work-orders/${id}/lines`, {
    headers,
    data: { kind: "labor", quantity: 0.5, unitCostCents: 8_000 },
  });
  expect(line.status()).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, fleet.token);
  await page.goto(`/work-orders/${id}`);
  const complete = page.getByRole("form", { name: "Complete" });
  await expect(complete).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");

  await goOffline(page);
  await complete
    .locator('input[type="file"]')
    .setInputFiles({ name: "wipers.png", mimeType: "image/png", buffer: PNG });
  await expect(complete.getByRole("img", { name: "Photo" })).toBeVisible();
  const pad = complete.locator("canvas.signature-pad");
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 90, { steps: 8 });
  await page.mouse.move(box.x + 220, box.y + 50, { steps: 8 });
  await page.mouse.up();
  await expect(pad).toHaveAttribute("data-signed", "true");
  await complete.getByLabel("Signed").fill("Sam Mechanic");
  // Done yesterday afternoon, entered now.
  const yesterday = await page.evaluate(() => {
    const d = new Date(Date.now() - 86_400_000);
    d.setHours(14, 30, 0, 0);
    const pad = (n: number) => String(n).padStart(2, "0");
    return { local: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T14:30`, iso: d.toISOString() };
  });
  await complete.getByLabel("Completed at").fill(yesterday.local);
  const completedAt = yesterday.iso;
  await page.screenshot({ path: testInfo.outputPath("completion-form-390.png"), fullPage: true });
  await complete.getByRole("button", { name: "Complete" }).click();
  const completion = page.getByRole("region", { name: "Completion" });
  await expect(completion).toContainText("by Sam Mechanic");
  await expect(completion.getByRole("img", { name: "Photo" })).toBeVisible();
  await expect(completion.getByRole("img", { name: "Signature of Sam Mechanic", exact: true })).toBeVisible();

  await goOnline(page);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced", { timeout: 30_000 });
  const order = (await (await request.get(`/api/work-orders/${id}`, { headers })).json()) as {
    status: string;
    completedAt: string;
    signedName: string;
    photoIds: string[];
    signaturePhotoId: string | null;
  };
  expect(order).toMatchObject({ status: "completed", signedName: "Sam Mechanic", completedAt });
  expect(order.photoIds).toHaveLength(1);
  // The photo and the signature (a PNG drawn on the screen) were uploaded when the signal returned.
  for (const photoId of [order.photoIds[0]!, order.signaturePhotoId!])
    await expect
      .poll(async () => (await request.get(`/api/photos/${photoId}`, { headers })).status(), { timeout: 30_000 })
      .toBe(200);
  await page.reload();
  // Now from the server: each image loaded (a picture, not the grey box of one not available yet).
  const signature = completion.getByRole("img", { name: "Signature of Sam Mechanic", exact: true });
  for (const image of [completion.getByRole("img", { name: "Photo", exact: true }), signature])
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await page.screenshot({ path: testInfo.outputPath("completed-signed-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("completed-signed-1440.png"), fullPage: true });
});
