import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";

/** Customers told of their visit (issue 53, docs/decisions/0085): the workspace's choice and a job's customer phone. */

test.use({ viewport: { width: 1440, height: 900 } });
const today = () => new Date().toISOString().slice(0, 10);

test("an owner chooses what customers are told, and a job takes its customer's phone in the international form", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Told Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  await signInAs(page, fleet.token);

  await page.goto("/workspace");
  const card = page.getByRole("form", { name: "Customer messages" });
  await expect(card).toContainText("texts are not set up on this server");
  await card.getByLabel("On its way, with the expected time").check();
  await card.getByLabel("Done").check();
  const minutes = card.getByLabel(/Arriving: minutes before/);
  await minutes.fill("90");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("alert")).toHaveText("At most 60 minutes");
  await expect(card.getByRole("status")).toHaveText(/Not saved/);
  await minutes.fill("10");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("status")).toHaveText(/Saved/);
  const saved = await request.get("/api/workspace/preferences", { headers: auth });
  expect(((await saved.json()) as { customerMessages: unknown }).customerMessages).toEqual({
    enRoute: true,
    arrivingMinutes: 10,
    completed: true,
    failed: false,
    showProofPhoto: false,
  });
  await page.reload();
  await expect(card.getByLabel("On its way, with the expected time")).toBeChecked();
  await expect(card.getByLabel(/Arriving: minutes before/)).toHaveValue("10");
  await expect(card.getByLabel("Show the delivery's proof photo on the tracking page")).not.toBeChecked();

  await page.goto("/jobs");
  const form = page.getByRole("form", { name: "New job" });
  await form.getByLabel("Title").fill("Deliver the boiler");
  await form.getByLabel("Latitude").fill("41.9104");
  await form.getByLabel("Longitude").fill("-87.6676");
  await form.getByLabel("Customer e-mail").fill("ann@example.com");
  const phone = form.getByLabel("Customer phone");
  await expect(phone).toHaveAttribute("type", "tel");
  await phone.fill("312 555 0100");
  await form.getByRole("button", { name: "Add job" }).click();
  await expect(form.getByText(/international form/)).toBeVisible();
  await phone.fill("+1 (312) 555-0100");
  await form.getByRole("button", { name: "Add job" }).click();
  await expect(page.getByRole("list", { name: "Unassigned jobs" })).toContainText("Deliver the boiler");
  await expect
    .poll(async () => {
      const res = await request.get(`/api/jobs?date=${today()}`, { headers: auth });
      return ((await res.json()) as { jobs: { customerPhone: string | null }[] }).jobs.map((j) => j.customerPhone);
    })
    .toEqual(["+13125550100"]);
});
