import { expect, test } from "@playwright/test";

// Issue 15 on the demo: the catalogue shows regional rows, the "*" rows as the fallback, Alibaba's
// cn-shanghai rows in CNY with their conversion, stale marks on old prices; the exchange rates are
// listed; the costs page names the stale prices behind the month and the host priced in CNY. The
// rate form refuses a bad rate beside its field (it adds nothing, so other specs are unaffected).

test.use({ storageState: "test-results/.auth/finance.json" });

test.describe("regional, dated and CNY prices", () => {
  test("the catalogue shows fallbacks, CNY conversions, stale marks and the exchange rates", async ({
    page,
  }) => {
    await page.goto("/settings/pricing");
    const table = page.getByTestId("pricing-table");
    const gn6i = table.locator('[data-testid="pricing-row"][data-type="ecs.gn6i-c4g1.xlarge"]');
    await expect(gn6i).toHaveCount(2);
    await expect(gn6i.and(page.locator('[data-region="cn-shanghai"]'))).toContainText(
      /¥11\.63\/h \(≈ \$\d+\.\d{2} at 0\.\d+ of \d{4}-\d{2}(-\d{2})?\)/,
    );
    await expect(gn6i.and(page.locator('[data-region="*"]'))).toContainText(
      "any region (fallback)",
    );
    await expect(table.getByTestId("price-stale").first()).toBeVisible();
    const p5 = table.locator(
      '[data-testid="pricing-row"][data-type="p5.48xlarge"][data-model="on_demand"]',
    );
    await expect(p5.and(page.locator('[data-region="us-west-2"]'))).toContainText("$55.0400/h");
    await expect(p5.filter({ hasText: "$98.3200/h" })).toHaveCount(1);

    const rates = page.getByTestId("rates-panel");
    await expect(rates.getByTestId("rate-row").first()).toContainText("CNY");
    await rates.getByTestId("rate-add").click();
    await rates.getByTestId("rate-usdPerUnit").fill("-1");
    await rates.getByTestId("rate-save").click();
    await expect(rates.getByTestId("field-error").first()).toBeVisible();
  });

  test("the costs page names the stale prices and the host priced in CNY", async ({ page }) => {
    await page.goto("/costs");
    const notes = page.getByTestId("price-notes");
    await expect(notes).toBeVisible();
    // one line; the lists open on demand
    await expect(notes.getByTestId("price-notes-line")).toContainText(/stale/);
    await notes.getByTestId("price-notes-summary").click();
    await expect(notes.getByTestId("stale-price").first()).toContainText(/as of \d{4}-\d{2}/);
    const cny = notes.getByTestId("converted-host");
    await expect(cny.filter({ hasText: "CNY" })).toHaveCount(1);
    await expect(cny).toContainText("gpu-alibaba-sha-");
  });
});
