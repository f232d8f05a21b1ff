import { expect, test, type APIRequestContext } from "@playwright/test";

// Runs against the demo. The budget is on project "evals", which spends far more than $100 a
// month, so its alert fires as soon as the rules are evaluated (saving the form does that).

const PROJECT = "evals";

async function dropProjectBudget(request: APIRequestContext): Promise<void> {
  const list = (await (await request.get("/api/budgets")).json()) as {
    budgets: { id: string; scopeKind: string; scopeValue: string }[];
  };
  for (const b of list.budgets)
    if (b.scopeKind === "project" && b.scopeValue === PROJECT)
      await request.delete(`/api/budgets/${b.id}`);
}

test.describe("settings page", () => {
  test.beforeEach(async ({ request }) => dropProjectBudget(request));
  test.afterEach(async ({ request }) => dropProjectBudget(request));

  test("create a budget (with validation errors first) and see its alert", async ({ page }) => {
    const name = `E2E evals ${Date.now()}`;
    await page.goto("/settings");
    await expect(page.getByTestId("rule-row").first()).toBeVisible();
    await page.getByTestId("budget-new").click();
    const form = page.getByTestId("budget-form");

    // the same zod schema as the API: clear messages per field, nothing sent
    await form.getByTestId("budget-amount").fill("twelve");
    await form.getByTestId("budget-thresholds").fill("50, abc");
    await form.getByTestId("budget-save").click();
    await expect(form).toContainText("name is required");
    await expect(form).toContainText("amount in dollars, e.g. 12000 or 12000.50");
    await expect(form).toContainText("a percentage");

    await form.getByTestId("budget-name").fill(name);
    await form.getByTestId("budget-scopeKind").selectOption("project");
    await form.getByTestId("budget-scopeValue").fill(PROJECT);
    await form.getByTestId("budget-amount").fill("100");
    await form.getByTestId("budget-thresholds").fill("50, 80, 100");
    await form.getByTestId("budget-save").click();
    await expect(form).toHaveCount(0);

    const row = page.locator(`[data-testid="budget-row"][data-name="${name}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("budget-spent")).toHaveAttribute("data-micros", /^[1-9]\d*$/);

    await page.goto("/alerts?kind=budget");
    const alert = page.locator('[data-testid="alert-row"][data-kind="budget"]', { hasText: name });
    await expect(alert.first()).toBeVisible({ timeout: 30_000 });
    await expect(alert.first()).toHaveAttribute("data-state", "firing");
    await expect(alert.first()).toContainText("past the 100 % threshold");
    await expect(alert.first()).toContainText("$100.00");
  });

  test("a channel refuses non-http URLs, and its test button reports the receiver's answer", async ({
    page,
  }) => {
    await page.goto("/settings");
    await page.getByTestId("channel-new").click();
    const form = page.getByTestId("channel-form");
    await form.getByTestId("channel-name").fill("E2E bad channel");
    await form.getByTestId("channel-url").fill("ftp://example.com/hook");
    await form.getByTestId("channel-save").click();
    await expect(form).toContainText("only http:// and https:// URLs are allowed");
    await form.getByRole("button", { name: "Cancel" }).click();

    // the demo's example channel points at 127.0.0.1:9, where nothing listens
    const example = page.getByTestId("channel-row").first();
    await expect(example).toHaveAttribute("data-status", "disabled");
    await example.getByTestId("channel-test").click();
    const result = example.getByTestId("channel-test-result");
    await expect(result).toHaveAttribute("data-ok", "no");
    await expect(result).toContainText("Failed");
  });
});
