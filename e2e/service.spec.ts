import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicle } from "./sync-helpers";

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
