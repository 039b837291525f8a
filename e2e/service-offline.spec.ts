import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { goOffline, goOnline, indicator, orderVehicle } from "./sync-helpers";
import { colleague } from "./team-helpers";
import { horizontalOverflow, PHONE, seriousViolations, smallTargets } from "./phone-helpers";

/** Logging service, adding, editing and deleting schedules with no network (shared/maintenance/service-mutators.ts): kept, shown at once, synced later. */

// A 1×1 PNG: what a phone's camera hands the page, only smaller.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
type Fleet = { token: string; workspaceId: string };
const auth = (fleet: Fleet) => ({ Authorization: `Bearer ${fleet.token}` });

async function created<T>(request: APIRequestContext, fleet: Fleet, path: string, data: Record<string, unknown>) {
  const res = await request.post(path, { headers: auth(fleet), data });
  expect(res.status()).toBe(201);
  return (await res.json()) as T;
}

test("service logged and a schedule added with no network show at once, then reach the server with the photo", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Offline Service Log Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const brakes = await created<{ id: string }>(request, fleet, "/api/service-schedules", {
    vehicleId: vehicle.id,
    name: "Brake check",
    everyDays: 30,
    lastDoneAt: day(40),
  });
  const issue = await created<{ id: string }>(request, fleet, "/api/issues", {
    vehicleId: vehicle.id,
    title: "Brakes squeal",
    priority: "high",
  });

  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  const schedules = page.getByRole("region", { name: "Service schedules" });
  await expect(schedules.getByText("Overdue")).toBeVisible();
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const myActions = page
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("link", { name: /^My actions/ });
  await expect(myActions).toHaveAttribute("aria-label", /My actions, \d+ to do/);
  const before = Number((await myActions.getAttribute("aria-label"))!.match(/(\d+) to do/)![1]);

  await goOffline(page);
  const add = page.getByRole("form", { name: "Add schedule" });
  await add.getByLabel("Name").fill("Tyre rotation");
  await add.getByRole("button", { name: "Add schedule" }).click();
  await expect(add.getByRole("alert").first()).toHaveText("Give at least one interval: miles, engine hours or days");
  await add.getByLabel("Every (mi)").fill("6000");
  await add.getByRole("button", { name: "Add schedule" }).click();
  await expect(schedules).toContainText("Tyre rotation");
  await expect(add.getByLabel("Name")).toHaveValue("");

  const log = page.getByRole("form", { name: "Log service" });
  await log.getByLabel("What was done").fill("Pads and rotors");
  await log.getByLabel("Cost ($)").fill("249.90");
  await log.getByLabel("Vendor").fill("Brake Shop");
  await expect(log.getByRole("checkbox", { name: "Brake check" })).toBeChecked();
  await log.getByRole("checkbox", { name: /Brakes squeal/ }).check();
  await log.locator('input[type="file"]').setInputFiles({ name: "pads.png", mimeType: "image/png", buffer: PNG });
  await expect(log.getByRole("img", { name: "Photo" })).toBeVisible();
  await log.getByRole("button", { name: "Log service" }).click();

  // Shown at once from the store: the entry, its cost, the schedule restarted, one thing fewer to do.
  const history = page.getByRole("region", { name: "Service history" });
  await expect(history).toContainText("Pads and rotors");
  await expect(history).toContainText("$249.90");
  await expect(schedules).not.toContainText("Overdue");
  await expect(myActions).not.toHaveAttribute("aria-label", `My actions, ${before} to do`);
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 2 changes will sync when you reconnect");

  // Back online: both reach the server, which restarts the schedule and resolves the issue.
  await goOnline(page);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const entries = (await (
    await request.get(`/api/service-entries?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { entries: Record<string, unknown>[] };
  expect(entries.entries).toEqual([
    expect.objectContaining({
      description: "Pads and rotors",
      costCents: 24_990,
      vendor: "Brake Shop",
      scheduleIds: [brakes.id],
      resolvesIssueIds: [issue.id],
    }),
  ]);
  const listed = (await (
    await request.get(`/api/service-schedules?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { schedules: { name: string; status: string; everyMiles: number | null }[] };
  expect(listed.schedules).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: "Brake check", status: "ok" }),
      expect.objectContaining({ name: "Tyre rotation", everyMiles: 6000 }),
    ]),
  );
  const resolved = await (await request.get(`/api/issues/${issue.id}`, { headers: auth(fleet) })).json();
  expect(resolved).toMatchObject({ status: "resolved" });
  const [photoId] = entries.entries[0]!.photoIds as string[];
  await expect
    .poll(async () => (await request.get(`/api/photos/${photoId}`, { headers: auth(fleet) })).status(), {
      timeout: 30_000,
    })
    .toBe(200);
});

test("a member demoted to viewer while offline: the service they log is refused when they reconnect, said with a toast and undone", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Demoted Service Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const member = await colleague(request, fleet, "member");
  await created(request, fleet, "/api/service-schedules", { vehicleId: vehicle.id, name: "Oil change", everyDays: 90 });

  await signInAs(page, member.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  await expect(page.getByText("No service logged in the last 90 days.")).toBeVisible();
  // Members log service; only owners and admins add, edit and delete schedules (and delete entries).
  await expect(page.getByRole("form", { name: "Add schedule" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Service schedules" })).toContainText("Oil change");
  await expect(page.getByRole("button", { name: /^(Edit|Delete) / })).toHaveCount(0);

  await goOffline(page);
  const demoted = await request.patch(`/api/workspaces/${fleet.workspaceId}/members/${member.userId}`, {
    headers: auth(fleet),
    data: { role: "viewer" },
  });
  expect(demoted.status()).toBe(200);
  const log = page.getByRole("form", { name: "Log service" });
  await log.getByLabel("What was done").fill("Not allowed any more");
  await log.getByRole("button", { name: "Log service" }).click();
  const history = page.getByRole("region", { name: "Service history" });
  await expect(history).toContainText("Not allowed any more");

  await goOnline(page);
  await expect(page.getByText(/Your change was not saved: You have view-only access/)).toBeVisible();
  await expect(history).not.toContainText("Not allowed any more");
  const entries = (await (
    await request.get(`/api/service-entries?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { entries: unknown[] };
  expect(entries.entries).toEqual([]);
});

test("an owner edits a schedule's interval and sees it overdue, deletes a schedule and an entry (asked first), the deletes offline shown at once and synced later", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Managed Schedules Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const brakes = { vehicleId: vehicle.id, name: "Brake check", everyDays: 30, lastDoneAt: day(20) };
  await created(request, fleet, "/api/service-schedules", brakes);
  await created(request, fleet, "/api/service-schedules", {
    vehicleId: vehicle.id,
    name: "Wiper check",
    everyDays: 90,
  });
  await created(request, fleet, "/api/service-entries", {
    vehicleId: vehicle.id,
    date: day(1),
    description: "Typed twice",
  });

  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  const schedules = page.getByRole("region", { name: "Service schedules" });
  const history = page.getByRole("region", { name: "Service history" });
  await expect(schedules.getByRole("listitem")).toHaveCount(2);
  await expect(schedules).not.toContainText("Overdue");
  await expect(history).toContainText("Typed twice");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const myActions = page
    .getByRole("navigation", { name: "Sections", exact: true })
    .getByRole("link", { name: /^My actions/ });
  // nothing to do yet: the link carries no count
  expect(await myActions.getAttribute("aria-label")).toBeNull();

  // Edit: the add form's fields, filled in; a shorter interval from the same last-done day is overdue.
  await schedules.getByRole("button", { name: "Edit Brake check" }).click();
  const edit = page.getByRole("form", { name: "Edit schedule" });
  await expect(edit.getByLabel("Name")).toHaveValue("Brake check");
  await expect(edit.getByLabel("Every (days)")).toHaveValue("30");
  await expect(edit.getByLabel("Last done on")).toHaveValue(day(20));
  await edit.getByLabel("Every (days)").fill("");
  await edit.getByRole("button", { name: "Save schedule" }).click();
  await expect(edit.getByRole("alert").first()).toHaveText("Give at least one interval: miles, engine hours or days");
  await edit.getByLabel("Every (days)").fill("15");
  await edit.getByRole("button", { name: "Save schedule" }).click();
  await expect(edit).toHaveCount(0);
  await expect(schedules.getByRole("listitem").filter({ hasText: "Brake check" })).toContainText("Overdue");
  await expect(myActions).toHaveAttribute("aria-label", "My actions, 1 to do");
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const edited = (await (
    await request.get(`/api/service-schedules?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { schedules: unknown[] };
  expect(edited.schedules).toContainEqual(
    expect.objectContaining({
      name: "Brake check",
      everyDays: 15,
      status: "overdue",
      lastDoneAt: `${day(20)}T00:00:00.000Z`,
    }),
  );

  // Offline: deleting asks first, then the schedule (and its place in My actions) and the entry go at once.
  await goOffline(page);
  await schedules.getByRole("button", { name: "Delete Brake check" }).click();
  const asked = schedules.getByRole("group", { name: /Delete “Brake check”\?/ });
  await expect(asked).toBeVisible();
  await expect(schedules).toContainText("Brake check");
  await asked.getByRole("button", { name: "Delete schedule" }).click();
  await expect(schedules.getByRole("listitem")).toHaveCount(1);
  await expect(schedules).not.toContainText("Brake check");
  await expect(myActions).not.toHaveAttribute("aria-label", /to do/);
  await history.getByRole("button", { name: `Delete the service of ${day(1)}` }).click();
  await history.getByRole("button", { name: "Delete entry" }).click();
  await expect(history).not.toContainText("Typed twice");
  await expect(indicator(page)).toHaveAttribute("aria-label", "Offline: 2 changes will sync when you reconnect");

  await goOnline(page);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const listed = (await (
    await request.get(`/api/service-schedules?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { schedules: unknown[] };
  expect(listed.schedules).toEqual([expect.objectContaining({ name: "Wiper check", everyDays: 90 })]);
  const due = (await (await request.get("/api/my-actions", { headers: auth(fleet) })).json()) as { service: unknown[] };
  expect(due.service).toEqual([]);
  const entries = (await (
    await request.get(`/api/service-entries?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { entries: unknown[] };
  expect(entries.entries).toEqual([]);
});

test("an admin demoted to member while offline: the schedule they delete is refused when they reconnect, said with a toast and back", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Demoted Admin Fleet");
  const vehicle = await orderVehicle(request, fleet);
  const admin = await colleague(request, fleet, "admin");
  await created(request, fleet, "/api/service-schedules", { vehicleId: vehicle.id, name: "Oil change", everyDays: 90 });

  await signInAs(page, admin.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  await expect(indicator(page)).toHaveAttribute("data-state", "synced");
  const schedules = page.getByRole("region", { name: "Service schedules" });
  await expect(schedules).toContainText("Oil change");

  await goOffline(page);
  const demoted = await request.patch(`/api/workspaces/${fleet.workspaceId}/members/${admin.userId}`, {
    headers: auth(fleet),
    data: { role: "member" },
  });
  expect(demoted.status()).toBe(200);
  await schedules.getByRole("button", { name: "Delete Oil change" }).click();
  await schedules.getByRole("button", { name: "Delete schedule" }).click();
  await expect(schedules).not.toContainText("Oil change");

  await goOnline(page);
  await expect(page.getByText(/Your change was not saved: Your role does not allow this change/)).toBeVisible();
  await expect(schedules).toContainText("Oil change");
  const listed = (await (
    await request.get(`/api/service-schedules?vehicleId=${vehicle.id}`, { headers: auth(fleet) })
  ).json()) as { schedules: unknown[] };
  expect(listed.schedules).toEqual([expect.objectContaining({ name: "Oil change" })]);
});

test("the Service tab's forms at 390 px: no sideways scrolling, small targets or serious axe-core violations", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request, "Phone Service Fleet");
  const vehicle = await orderVehicle(request, fleet);
  await created(request, fleet, "/api/service-schedules", { vehicleId: vehicle.id, name: "Oil change", everyDays: 90 });
  await created(request, fleet, "/api/issues", { vehicleId: vehicle.id, title: "Wiper torn", priority: "low" });
  await page.setViewportSize(PHONE);
  await signInAs(page, fleet.token);
  await page.goto(`/vehicles/${vehicle.id}/service`);
  const log = page.getByRole("form", { name: "Log service" });
  await expect(log.getByRole("checkbox", { name: "Oil change" })).toBeVisible();
  await expect(log.getByRole("checkbox", { name: /Wiper torn/ })).toBeVisible();
  await log.getByRole("button", { name: "Log service" }).click();
  // Logged with the defaults (today, nothing else): the row is on the tab with the form reset under it.
  await expect(page.getByRole("region", { name: "Service history" })).toContainText(day(0));
  // Its toast said so and went (sonner's 4 s): the checks below are of the page, not of a toast's fade.
  await expect(page.getByText("Service logged", { exact: true })).toBeVisible();
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  const checks = async () => [
    ...(await seriousViolations(page)),
    ...(await horizontalOverflow(page)),
    ...(await smallTargets(page)),
  ];
  expect(await checks()).toEqual([]);
  // An owner's Edit form in place, and a delete asking first, fit the phone too.
  await page.getByRole("button", { name: "Edit Oil change" }).click();
  await expect(page.getByRole("form", { name: "Edit schedule" })).toBeVisible();
  await page.getByRole("button", { name: `Delete the service of ${day(0)}` }).click();
  await expect(page.getByRole("button", { name: "Delete entry" })).toBeVisible();
  expect(await checks()).toEqual([]);
});
