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
  await expect(card).toContainText("texts go once an owner or admin sets the workspace's Twilio account below");
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

test("an owner sets the workspace's own Twilio account, its token never shown again, tests it, and removes it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fleet = await newFleetAccount(request, "Texting Fleet");
  const auth = { Authorization: `Bearer ${fleet.token}` };
  await signInAs(page, fleet.token);

  await page.goto("/workspace");
  const card = page.getByRole("region", { name: "Texts to customers (Twilio)" });
  await expect(card.getByTestId("sms-account-state")).toHaveText(/Not configured/);
  const sid = "AC0123456789abcdef0123456789abcdef";
  const token = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
  await card.getByLabel("Account SID").fill("SK123");
  await card.getByLabel("Auth token").fill(token);
  await card.getByLabel(/^From/).fill("+1 (500) 555-0006");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByText("An Account SID is AC followed by 32 hexadecimal characters")).toBeVisible();
  await expect(card.getByRole("status")).toHaveText(/Not saved/);

  await card.getByLabel("Account SID").fill(sid);
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByTestId("sms-account-state")).toHaveText(
    `Configured: account ${sid}, texts from +15005550006.`,
  );
  await expect(card.getByLabel(/Auth token/)).toHaveValue("");
  // One field each, holding what is kept (a field of the empty form once stayed beside it).
  await expect(card.getByLabel("Account SID")).toHaveValue(sid);
  await page.reload();
  await expect(card.getByTestId("sms-account-state")).toHaveText(/Configured/);
  await expect(card.getByLabel("Account SID")).toHaveValue(sid);
  await expect(card.getByLabel(/^From/)).toHaveValue("+15005550006");
  await expect(page.getByRole("form", { name: "Customer messages" })).toContainText(
    "and, with a phone number, by text",
  );
  expect(await (await request.get("/api/workspace/sms", { headers: auth })).text()).not.toContain(token);

  // A test text through the account (Twilio faked at its HTTP boundary, scripts/twilio-fake.mjs).
  const tester = card.getByRole("form", { name: "Send a test text" });
  await tester.getByLabel("Send a test text to").fill("555 0199");
  await tester.getByRole("button", { name: "Send test text" }).click();
  await expect(tester.getByText("Use the international form, + and the country code: +13125550100")).toBeVisible();
  await tester.getByLabel("Send a test text to").fill("+1 500 555 0001");
  await tester.getByRole("button", { name: "Send test text" }).click();
  await expect(tester.getByRole("status")).toHaveText(
    /Twilio refused the text: The 'To' number \+15005550001 is not a valid phone number\. \(Twilio error 21211\)/,
  );
  await tester.getByLabel("Send a test text to").fill("+1 (312) 555-0199");
  await tester.getByRole("button", { name: "Send test text" }).click();
  await expect(tester.getByRole("status")).toHaveText(/Test text sent to \+13125550199/);

  await card.getByRole("button", { name: "Remove" }).click();
  await card.getByRole("button", { name: "Remove account" }).click();
  await expect(card.getByTestId("sms-account-state")).toHaveText(/Not configured/);
  const after = (await (await request.get("/api/workspace/preferences", { headers: auth })).json()) as {
    customerSms: boolean;
  };
  expect(after.customerSms).toBe(false);
});
