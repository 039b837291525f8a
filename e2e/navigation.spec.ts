import { expect, test } from "./fixtures";
import { newFleetAccount, signInAs } from "./helpers";
import { orderVehicles } from "./ui-helpers";

test.describe("navigation", () => {
  test("the top bar links to Vehicles and Map; its menu has the specified items and logs out", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/vehicles");
    const main = page.getByRole("navigation", { name: "Main" });
    await main.getByRole("link", { name: "Map" }).click();
    await expect(page).toHaveURL(/\/map$/);
    await main.getByRole("link", { name: "Vehicles" }).click();
    await expect(page).toHaveURL(/\/vehicles$/);

    await page.getByRole("button", { name: "Account menu" }).click();
    const items = page.getByRole("menu", { name: "Account menu" }).getByRole("menuitem");
    await expect(items).toHaveText([
      "Profile",
      "Billing",
      "Settings",
      "Keyboard shortcuts",
      "Team",
      "New Team",
      "Support",
      "Log out",
    ]);
    // Team is an in-app link: the page is not loaded again (a mark left on window survives).
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole("menuitem", { name: "Team", exact: true }).click();
    await expect(page).toHaveURL(/\/team$/);
    await expect(page.getByRole("heading", { name: "Employees" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/vehicles");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fvehicles$/);
  });

  // Issue 56: the app scrolls its main element, not the window, so every page opened where the last was left.
  test("a page opens at its top, and Back and Forward return each page to where it was scrolled", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await orderVehicles(request, fleet, 30);
    await page.setViewportSize({ width: 390, height: 700 });
    await signInAs(page, fleet.token);
    await page.goto("/jobs");
    await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
    const main = page.locator("main");
    const scrollTop = () => main.evaluate((el) => el.scrollTop);
    const scrollTo = async (top: number) => {
      await main.evaluate((el, top) => el.scrollTo(0, top), top);
      await expect.poll(scrollTop).toBe(top);
    };
    const open = async (name: string) => {
      await page.getByRole("button", { name: /^Menu/ }).click();
      await page.getByRole("dialog", { name: "Navigation menu" }).getByRole("link", { name, exact: true }).click();
    };
    await expect.poll(() => main.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(1200);
    await scrollTo(1200);

    await open("Fuel");
    await expect(page.getByRole("heading", { name: "Fuel", level: 1 })).toBeVisible();
    expect(await scrollTop()).toBe(0);
    await scrollTo(300);

    await page.goBack();
    await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
    await expect.poll(scrollTop).toBe(1200);
    await page.goForward();
    await expect(page.getByRole("heading", { name: "Fuel", level: 1 })).toBeVisible();
    await expect.poll(scrollTop).toBe(300);
    // A page opened again (not through Back) is a new visit: its top.
    await open("Jobs");
    await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();
    expect(await scrollTop()).toBe(0);
  });

  for (const [where, menuName, first, last] of [
    ["/vehicles", "Account menu", "Profile", "Log out"],
    ["/map", "Workspace menu", "Preferences", "Log out"],
  ] as const) {
    test(`the ${menuName} is a menu button: arrow keys move, Escape closes and returns focus`, async ({
      page,
      request,
    }) => {
      const fleet = await newFleetAccount(request);
      await signInAs(page, fleet.token);
      await page.goto(where);
      const trigger = page.getByRole("button", { name: menuName });
      await expect(trigger).toHaveAttribute("aria-haspopup", "menu");
      await expect(trigger).toHaveAttribute("aria-expanded", "false");

      await trigger.focus();
      await page.keyboard.press("Enter");
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      const menu = page.getByRole("menu", { name: menuName });
      await expect(menu).toBeVisible();
      await expect(menu.getByRole("menuitem", { name: first })).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(menu.getByRole("menuitem", { name: first })).not.toBeFocused();
      await page.keyboard.press("End");
      await expect(menu.getByRole("menuitem", { name: last })).toBeFocused();
      await page.keyboard.press("Home");
      await expect(menu.getByRole("menuitem", { name: first })).toBeFocused();

      await page.keyboard.press("Escape");
      await expect(menu).toHaveCount(0);
      await expect(trigger).toHaveAttribute("aria-expanded", "false");
      await expect(trigger).toBeFocused();

      // ArrowDown on the trigger opens the menu too, and Enter picks the focused item.
      await page.keyboard.press("ArrowDown");
      await expect(menu.getByRole("menuitem", { name: first })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(menu).toHaveCount(0);
    });
  }

  test("a route whose preload fails is logged as Error preloading route!, and still opens", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    const logged: string[] = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    await page.goto("/inbox");
    const people = page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "People" });
    await expect(people).toBeVisible();
    // The People page's code cannot be fetched while the link is being preloaded.
    await page.route(/\/assets\/_app\.people-[\w-]+\.js$/, (route) => route.abort());
    await people.hover();
    await expect.poll(() => logged.some((line) => line.startsWith("Error preloading route!"))).toBe(true);
    await page.unroute(/\/assets\/_app\.people-[\w-]+\.js$/);
    await people.click();
    await expect(page.getByRole("button", { name: "New Person" })).toBeVisible();
  });

  test("the side navigation: 256px, Inbox (no badge with nothing unread), My actions, Workspace (with Reports) and Team groups, Back to app", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/inbox");
    const side = page.getByRole("navigation", { name: "Sections" });
    await expect(side).toBeVisible();
    expect((await side.boundingBox())!.width).toBe(256);
    // the badge is the real unread count (issue 21): a new workspace has no alerts
    await expect(side.getByRole("link", { name: "Inbox", exact: true })).toBeVisible();

    const destinations: [RegExp | string, string, string][] = [
      ["Overview", "/overview", "Overview"],
      [/^My actions$/, "/actions", "My actions"],
      ["My day", "/my-day", "My day"],
      ["Vehicles", "/vehicles", "Vehicles"],
      ["Jobs", "/jobs", "Jobs"],
      ["Issues", "/issues", "Issues"],
      ["Work orders", "/work-orders", "Work orders"],
      ["Inspections", "/inspections", "Inspections"],
      ["Fuel", "/fuel", "Fuel"],
      ["Reports", "/reports", "Reports"],
      ["People", "/people", "People"],
      ["Locations", "/locations", "Locations"],
    ];
    for (const [name, path, heading] of destinations) {
      await side.getByRole("link", { name }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
    await expect(side.getByRole("group", { name: "Workspace" }).getByRole("link")).toHaveText([
      "Vehicles",
      "Jobs",
      "Issues",
      "Work orders",
      "Inspections",
      "Fuel",
      "Reports",
    ]);
    await expect(side.getByRole("group", { name: "Team" }).getByRole("link")).toHaveText(["People", "Locations"]);
    await side.getByRole("link", { name: "Back to app" }).click();
    await expect(page).toHaveURL(/\/map$/);
    // The map has the whole width: no side navigation there.
    await expect(side).toHaveCount(0);
  });

  test("the side navigation is hidden below the sm breakpoint", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await page.setViewportSize({ width: 600, height: 800 });
    await signInAs(page, fleet.token);
    await page.goto("/inbox");
    await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
    await page.setViewportSize({ width: 640, height: 800 });
    await expect(page.getByRole("navigation", { name: "Sections" })).toBeVisible();
  });

  test("the workspace menu on the map: avatar letter, Preferences, switching and Log out", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request, "Zeta Logistics");
    // A second workspace the viewer belongs to, so the switcher has something to list (created
    // without switching to it: a switch would revoke fleet.token, issue 13).
    const other = await request.post("/api/workspaces", {
      headers: { Authorization: `Bearer ${fleet.token}` },
      data: { name: "Other Fleet" },
    });
    expect(other.status()).toBe(201);
    await signInAs(page, fleet.token);
    await page.goto("/map");
    const trigger = page.getByRole("button", { name: "Workspace menu" });
    await expect(trigger.locator(".avatar")).toHaveText("Z");
    await trigger.click();
    const panel = page.getByRole("menu", { name: "Workspace menu" });
    for (const item of ["Preferences", "Workspace settings", "Invite and manage members", "New workspace", "Log out"]) {
      await expect(panel.getByRole("menuitem", { name: item })).toBeVisible();
    }
    const switcher = panel.getByRole("group", { name: "Switch workspace" });
    await expect(switcher).toContainText("Switch workspace");
    await expect(switcher).toContainText(fleet.email);
    await expect(switcher.getByRole("menuitem", { name: "Zeta Logistics (current)" })).toContainText("✓");
    await expect(switcher.getByRole("menuitem", { name: "Other Fleet" })).not.toContainText("✓");

    await panel.getByRole("menuitem", { name: "Preferences" }).click();
    await expect(page).toHaveURL(/\/workspace$/);
    await expect(page.getByRole("heading", { name: "Preferences" })).toBeVisible();

    await page.goto("/map");
    await page.getByRole("button", { name: "Workspace menu" }).click();
    await page.getByRole("menuitem", { name: "New workspace" }).click();
    await expect(page).toHaveURL(/\/setup$/);

    await page.goto("/map");
    await page.getByRole("button", { name: "Workspace menu" }).click();
    await page.getByRole("menuitem", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a slow page shows a progress bar after a delay, which goes once the page is there", async ({
    page,
    request,
  }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/inbox");
    await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    // Hold the People page's code until the bar has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/_app\.people-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "People" }).click();
    await expect(page.getByRole("progressbar", { name: "Loading page" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Inbox" })).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveCount(0);
  });
});

test.describe("placeholders", () => {
  test("My actions and Inspections show their pages (issue 32)", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/actions");
    await expect(page.getByRole("heading", { level: 1, name: "My actions" })).toBeVisible();
    await expect(page.getByText("Nothing to do. Well done.")).toBeVisible();
    await page.goto("/inspections");
    await expect(page.getByRole("heading", { level: 1, name: "Inspections" })).toBeVisible();
    await expect(page.getByText("No inspections in the last 7 days.")).toBeVisible();
  });

  test("/team has its filter and the Employees header", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/team");
    await expect(page.getByRole("searchbox", { name: "Filter team" })).toHaveAttribute(
      "placeholder",
      "Filter by name, email, or role",
    );
    await expect(page.getByRole("heading", { name: "Employees" })).toBeVisible();
    // The members list (issue 20): the owner alone in a new workspace.
    await expect(
      page.getByRole("table", { name: "Members" }).getByRole("row", { name: new RegExp(fleet.email) }),
    ).toContainText("Owner");
  });

  test("/people opens a New Person dialog with name, e-mail and phone", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/people");
    await page.getByRole("button", { name: "New Person" }).click();
    const dialog = page.getByRole("dialog", { name: "New Person" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Name")).toBeVisible();
    await expect(dialog.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(dialog.getByLabel("Phone")).toHaveAttribute("type", "tel");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  });

  test("/workspace is Preferences", async ({ page, request }) => {
    const fleet = await newFleetAccount(request);
    await signInAs(page, fleet.token);
    await page.goto("/workspace");
    await expect(page.getByRole("heading", { name: "Preferences" })).toBeVisible();
  });
});
