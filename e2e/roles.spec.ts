import { expect, test } from "@playwright/test";
import { DEMO_USERS } from "../lib/demo/demo-logins.ts";

// Sign in as each role and see exactly what that role may: the header's links, the pages that
// open and the ones that answer 403, and the API refusing the rest. Plus the sign-in page itself.

const PAGES = [
  "/",
  "/my-gpus",
  "/alerts",
  "/recommendations",
  "/costs",
  "/compare",
  "/settings",
  "/settings/pricing",
  "/admin",
] as const;
const NAV: Record<string, string[]> = {
  viewer: ["Fleet", "My GPUs"],
  operator: ["Fleet", "My GPUs", "Compare", "Alerts", "Recommendations"],
  finance: ["Fleet", "My GPUs", "Costs", "Compare", "Alerts", "Recommendations", "Settings"],
  admin: ["Fleet", "My GPUs", "Costs", "Compare", "Alerts", "Recommendations", "Settings", "Admin"],
};
const PAGE_FOR_LINK: Record<string, (typeof PAGES)[number]> = {
  Fleet: "/",
  "My GPUs": "/my-gpus",
  Costs: "/costs",
  Compare: "/compare",
  Alerts: "/alerts",
  Recommendations: "/recommendations",
  Settings: "/settings",
  Admin: "/admin",
};

for (const u of DEMO_USERS) {
  test.describe(`as ${u.role}`, () => {
    test.use({ storageState: `test-results/.auth/${u.role}.json` });

    test(`${u.role} sees only their pages`, async ({ page }) => {
      await page.goto("/");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link")).toHaveText(NAV[u.role] ?? []);
      await expect(page.locator(".user-menu")).toContainText(u.email);
      await expect(page.locator(".role-badge")).toHaveText(u.role);
      // the fleet's budget is finance's: the headline shows it only to finance and admins
      const mtd = page.getByTestId("stat-mtd");
      await expect(mtd).toContainText("forecast");
      if (u.role === "viewer" || u.role === "operator")
        await expect(mtd).not.toContainText("budget");
      else await expect(mtd).toContainText("budget");

      // links inside pages follow the role too: the alerts page offers settings only to those who may
      if (u.role !== "viewer") {
        await page.goto("/alerts");
        const settings = page.getByRole("link", { name: "Rules & channels" });
        await expect(settings).toHaveCount(u.role === "operator" ? 0 : 1);
      }

      // and the instance page links to alerts and recommendations only for roles that may open them
      await page.goto("/");
      await page.getByTestId("instance-table").getByRole("link").first().click();
      await expect(page.getByTestId("instance-hostname")).toBeVisible();
      await expect(page.getByTestId("link-alerts")).toHaveCount(u.role === "viewer" ? 0 : 1);

      const allowed = new Set((NAV[u.role] ?? []).map((l) => PAGE_FOR_LINK[l]));
      // the pricing catalogue is a settings page of its own, reached from the settings tabs
      if (allowed.has("/settings")) allowed.add("/settings/pricing");
      for (const path of PAGES) {
        const res = await page.goto(path);
        if (allowed.has(path)) {
          expect(res?.status(), path).toBe(200);
          await expect(page.getByRole("heading", { name: "Not allowed" })).toHaveCount(0);
        } else {
          expect(res?.status(), path).toBe(403);
          await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
        }
      }
    });
  });
}

test.describe("the API follows the role, not the buttons", () => {
  test.use({ storageState: "test-results/.auth/viewer.json" });

  test("a viewer reads the fleet but not costs, alerts or budgets", async ({ request }) => {
    expect((await request.get("/api/fleet")).status()).toBe(200);
    expect((await request.get("/api/costs")).status()).toBe(403);
    expect((await request.get("/api/costs/export.csv")).status()).toBe(403);
    expect((await request.get("/api/alerts")).status()).toBe(403);
    const post = await request.post("/api/budgets", { data: { name: "x", amount: "1" } });
    expect(post.status()).toBe(403);
  });
});

test.describe("an operator acts on alerts but cannot edit budgets or rules", () => {
  test.use({ storageState: "test-results/.auth/operator.json" });

  test("operator", async ({ request }) => {
    expect((await request.get("/api/alerts")).status()).toBe(200);
    expect((await request.post("/api/alerts/evaluate", { data: {} })).status()).toBe(200);
    expect(
      (await request.post("/api/budgets", { data: { name: "x", amount: "1" } })).status(),
    ).toBe(403);
    expect((await request.post("/api/rules", { data: { name: "x", kind: "idle" } })).status()).toBe(
      403,
    );
  });
});

test.describe("signing in and out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("a page asks for a login, refuses a wrong password, then comes back", async ({ page }) => {
    const finance = DEMO_USERS.find((x) => x.role === "finance");
    if (!finance) throw new Error("no demo finance user");
    await page.goto("/costs?month=2026-10");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fcosts%3Fmonth%3D2026-10$/);
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);

    await page.getByLabel("Email").fill(finance.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#sign-in-error")).toHaveText("Wrong email or password.");

    await page.getByLabel("Password").fill(finance.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/costs\?month=2026-10$/);
    await expect(page.locator(".user-menu")).toContainText(finance.email);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
    expect((await page.request.get("/api/fleet")).status()).toBe(401);
  });

  test("pages carry a nonce CSP and refuse framing", async ({ page }) => {
    const res = await page.goto("/sign-in");
    const headers = res?.headers() ?? {};
    expect(headers["content-security-policy"]).toMatch(
      /script-src 'self' 'nonce-[^']+' 'strict-dynamic'/,
    );
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    // (the sign-in test above only passes when the page's scripts run under this policy)
  });
});
