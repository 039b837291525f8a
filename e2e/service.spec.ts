import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { indicator, orderVehicle } from "./sync-helpers";
import { SERVICE_ENTRY_FIELD_TABLE, serviceEntryTable } from "../shared/maintenance/service-entry-fields";
import { SERVICE_SCHEDULE_FIELD_TABLE, serviceScheduleTable } from "../shared/maintenance/service-schedule-fields";

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

test("an owner adds a schedule (a missing interval is said on its field), then logs the service that completes it", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Service Forms Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await expect(page.getByText("No schedules yet.")).toBeVisible();
  // The forms are spaced from the history's "Show older" above them (1rem), not flush on it.
  const older = (await page.getByRole("button", { name: "Show older" }).boundingBox())!;
  const forms = (await page.getByRole("form", { name: "Log service" }).boundingBox())!;
  expect(forms.y - (older.y + older.height)).toBeGreaterThanOrEqual(12);

  const add = page.getByRole("form", { name: "Add schedule" });
  await add.getByLabel("Name").fill("Brake check");
  await add.getByRole("button", { name: "Add schedule" }).click();
  await expect(add.getByRole("alert").first()).toHaveText("Give at least one interval: miles, engine hours or days");
  await add.getByLabel("Every (days)").fill("30");
  await add.getByLabel("Last done on").fill(day(40));
  await add.getByRole("button", { name: "Add schedule" }).click();
  const schedules = page.getByRole("region", { name: "Service schedules" });
  await expect(schedules.getByRole("listitem")).toHaveCount(1);
  await expect(schedules).toContainText("Brake check");
  await expect(schedules).toContainText("Overdue");
  await expect(add.getByLabel("Name")).toHaveValue("");

  const log = page.getByRole("form", { name: "Log service" });
  await log.getByLabel("What was done").fill("Pads and rotors");
  await log.getByLabel("Cost ($)").fill("249.90");
  await expect(log.getByRole("checkbox", { name: "Brake check" })).toBeChecked();
  await log.getByRole("button", { name: "Log service" }).click();
  const history = page.getByRole("region", { name: "Service history" });
  await expect(history).toContainText("Pads and rotors");
  await expect(history).toContainText("$249.90");
  await expect(schedules).not.toContainText("Overdue");
});

test("My actions shows a long service-due list fifty at a time", async ({ page, request }) => {
  const fleet = await newFleetAccount(request, "Long Due List Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const headers = { Authorization: `Bearer ${fleet.token}` };
  for (let n = 1; n <= 60; n++) {
    const data = { vehicleId: vehicle.id, name: `Check ${n}`, everyDays: 7, lastDoneAt: day(10) };
    expect((await request.post("/api/service-schedules", { headers, data })).status()).toBe(201);
  }
  await signInAs(page, fleet.token);
  await page.goto("/actions");
  const due = page.getByRole("region", { name: "Service due" });
  await expect(due.getByRole("listitem")).toHaveCount(50);
  await due.getByRole("button", { name: "Show 10 more of 60" }).click();
  await expect(due.getByRole("listitem")).toHaveCount(60);
  // Every row is listed: no "Show … more" is left (each row has its own "Create work order").
  await expect(due.getByRole("button", { name: /^Show \d+ more/ })).toHaveCount(0);
  await expect(due.getByRole("button", { name: /^Create work order/ })).toHaveCount(60);
});

test("the Add schedule and Log service forms ask for each table field they list, and the server keeps what was typed", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Service Table Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const forms = [
    {
      ...{ form: "Add schedule", path: "/api/service-schedules", list: "schedules" },
      ...{ fields: serviceScheduleTable.formFields, table: SERVICE_SCHEDULE_FIELD_TABLE },
    },
    {
      ...{ form: "Log service", path: "/api/service-entries", list: "entries" },
      ...{ fields: serviceEntryTable.formFields, table: SERVICE_ENTRY_FIELD_TABLE },
    },
  ];
  for (const { form: name, path, list, fields, table } of forms) {
    const form = page.getByRole("form", { name });
    const typed: Record<string, string | number> = {};
    for (const { name: field, label, scale } of fields) {
      const example = (table as Record<string, { example: string | number }>)[field]!.example;
      typed[field] = example;
      // a scaled input in its own unit (the cost in dollars)
      await form.getByLabel(label, { exact: true }).fill(String(scale ? Number(example) / scale : example));
    }
    await form.getByRole("button", { name }).click();
    await expect(indicator(page)).toHaveAttribute("data-state", "synced");
    // the server's copy, once the push has reached it
    await expect
      .poll(async () => {
        const headers = { Authorization: `Bearer ${fleet.token}` };
        const res = await request.get(`${path}?vehicleId=${vehicle.id}`, { headers });
        const answer = res.ok() ? ((await res.json()) as Record<string, Record<string, unknown>[]>) : {};
        return answer[list]?.[0] ?? {};
      })
      .toMatchObject(typed);
  }
});
