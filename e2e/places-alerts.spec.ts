import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles, report } from "./ui-helpers";
import type { FieldSpec } from "../shared/fields/field-table";
import { PLACE_FIELD_TABLE, placeTable } from "../shared/places/place-fields";

/**
 * Places and alerts in the browser (issue 21): a place typed in /locations is listed and synced
 * (the REST API sees it); a rule on it turns a vehicle crossing it into an alert that arrives live
 * in an open Inbox, raises the side navigation's badge, and is read once clicked.
 */
test("a typed place, a rule on it, and the alert arriving live in the Inbox with its badge", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  const [beacon] = await orderVehicles(request, fleet, 1);
  await signInAs(page, fleet.token);

  await page.goto("/locations");
  await expect(page.getByRole("heading", { name: "Locations" })).toBeVisible();
  await page.getByLabel("Coordinates (latitude, longitude; one per line)").fill("41.88, -87.63");
  await page.getByLabel("Radius (m, for one point)").fill("150");
  await page.getByRole("button", { name: "Add place" }).click();
  const name = page.getByRole("list", { name: "Places" }).getByLabel("Place name");
  await expect(name).toHaveValue("Place 1");
  await name.fill("Depot");
  await name.press("Enter");

  const auth = { Authorization: `Bearer ${fleet.token}` };
  await expect
    .poll(async () =>
      (
        (await (await request.get("/api/places", { headers: auth })).json()) as { places: { name: string }[] }
      ).places.map((p) => p.name),
    )
    .toEqual(["Depot"]);

  await page.goto("/inbox");
  await page.getByRole("combobox", { name: "When" }).selectOption("place_enter");
  await page.getByRole("combobox", { name: "Place", exact: true }).selectOption({ label: "Depot" });
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByText("Entered a place: Depot")).toBeVisible();
  const side = page.getByRole("navigation", { name: "Sections" });
  await expect(side.getByRole("link", { name: "Inbox", exact: true })).toBeVisible();

  const t0 = Date.now() - 30_000;
  await report(request, beacon!.id, { lat: 41.87, lon: -87.63, timestamp: t0, ignition: true, speed: 20 });
  await report(request, beacon!.id, { lat: 41.8801, lon: -87.63, timestamp: t0 + 20_000, ignition: true, speed: 5 });

  const row = page.getByRole("button", { name: new RegExp(`^Unread: ${beacon!.vehicleName}, Entered a place: Depot`) });
  await expect(row).toBeVisible();
  await expect(side.getByRole("link", { name: "Inbox, 1 unread" })).toBeVisible();
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/map\\?vehicleId=${beacon!.vehicleId}`));
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
  await page.goto("/inbox");
  await expect(
    page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Inbox", exact: true }),
  ).toBeVisible();
});

test("a rule's delivery: e-mail to a chosen member and a webhook, edited later; the owner sees the signing secret", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  await signInAs(page, fleet.token);
  await page.goto("/inbox");
  const form = page.getByRole("form", { name: "New alert rule" });
  await form.getByRole("combobox", { name: "When" }).selectOption("tow");
  await form.getByRole("checkbox", { name: fleet.email }).check();
  await form.getByLabel("Webhook").fill("https://hooks.example.com/fleet");
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByText("Towed · e-mail to 1 member, webhook")).toBeVisible();

  await page.getByRole("button", { name: "Edit rule: Towed" }).click();
  const edit = page.getByRole("form", { name: "Edit alert rule" });
  await expect(edit.getByRole("checkbox", { name: fleet.email })).toBeChecked();
  await edit.getByLabel("Webhook").fill("");
  await edit.getByRole("button", { name: "Save rule" }).click();
  await expect(page.getByText("Towed · e-mail to 1 member", { exact: true })).toBeVisible();
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const rules = (await (await request.get("/api/alert-rules", { headers: auth })).json()) as {
    rules: { notify: { emails: string[]; webhookUrl: string | null } }[];
  };
  expect(rules.rules.map((r) => r.notify)).toEqual([{ emails: [fleet.email], webhookUrl: null }]);

  await page.getByRole("button", { name: "Show secret" }).click();
  const secret = page.getByRole("region", { name: "Webhook signing secret" }).getByLabel("Secret", { exact: true });
  await expect(secret).toHaveText(/^whsec_/);
  // Rotating asks first (receivers must change theirs), then shows the new one.
  const before = await secret.textContent();
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("button", { name: "Rotate", exact: true }).click();
  await expect(secret).not.toHaveText(before!);
  await expect(secret).toHaveText(/^whsec_/);
});

/**
 * A place's row edits each field of the place table that has an input (shared/places/place-fields.ts,
 * docs/decisions/0105): typed and left (or Enter), kept by the server; a required one left empty
 * goes back to what the place has. A field added to the table is typed here with no new test.
 */
test("each input of a place's row is a field of the place table, kept by the server when left", async ({
  page,
  request,
}) => {
  const fleet = await newFleetAccount(request);
  await signInAs(page, fleet.token);
  await page.goto("/locations");
  await page.getByLabel("Coordinates (latitude, longitude; one per line)").fill("41.88, -87.63");
  await page.getByLabel("Radius (m, for one point)").fill("150");
  await page.getByRole("button", { name: "Add place" }).click();
  const row = page.getByRole("list", { name: "Places" }).getByRole("listitem");
  await expect(row.getByLabel("Place name")).toHaveValue("Place 1");

  const table: Record<string, FieldSpec> = PLACE_FIELD_TABLE;
  const typed: Record<string, string | number> = {};
  for (const { name, label } of placeTable.formFields) {
    typed[name] = table[name]!.example;
    await row.getByLabel(label, { exact: true }).fill(String(typed[name]));
    await row.getByLabel(label, { exact: true }).press("Enter");
  }
  const auth = { Authorization: `Bearer ${fleet.token}` };
  const listed = async () =>
    ((await (await request.get("/api/places", { headers: auth })).json()) as { places: Record<string, unknown>[] })
      .places[0] ?? {};
  await expect.poll(listed).toMatchObject(typed);

  // a required field emptied is not sent: the input shows the kept value again
  const required = placeTable.formFields.filter((f) => table[f.name]!.required);
  for (const { name, label } of required) {
    await row.getByLabel(label, { exact: true }).fill("  ");
    await row.getByLabel(label, { exact: true }).press("Enter");
    await expect(row.getByLabel(label, { exact: true })).toHaveValue(String(typed[name]));
  }
  await expect.poll(listed).toMatchObject(typed);
});
