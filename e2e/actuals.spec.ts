import { expect, test } from "@playwright/test";
import { addMonths, monthOf } from "../lib/core/months.ts";

// Finance puts last month on actuals in the demo (issue 26): on the reconciliation page, with the
// bill the demo seeds for last month, previews re-pricing from the bill (old and new totals, how
// many host-hours change), applies it (last month is closed, so it is reopened knowingly), sees
// the month on actuals, and the costs page then says how many of its hours are actuals.

test.use({ storageState: "test-results/.auth/finance.json" });

test("finance previews and applies actuals; the costs page shows the month on actuals", async ({
  page,
}) => {
  test.setTimeout(240_000); // re-pricing a month of the demo fleet takes a while on a busy host
  const month = addMonths(monthOf(new Date()), -1);

  await page.goto(`/costs/reconcile?month=${month}`);
  await expect(page.locator("main h1")).toHaveText("Reconciliation");
  const panel = page.getByTestId("actuals-panel");
  const status = panel.getByTestId("actuals-status");
  await expect(status).toHaveAttribute("data-actual-hours", "0");
  await expect(status).toContainText("list estimates");
  const estimate = await page.getByTestId("recon-estimate").getAttribute("data-micros");

  await panel.getByTestId("actuals-preview").click();
  const oldTotal = panel.getByTestId("actuals-old-total");
  const newTotal = panel.getByTestId("actuals-new-total");
  await expect(newTotal).toBeVisible({ timeout: 120_000 });
  const oldMicros = BigInt((await oldTotal.getAttribute("data-micros")) ?? "x");
  const newMicros = BigInt((await newTotal.getAttribute("data-micros")) ?? "x");
  const delta = BigInt(
    (await panel.getByTestId("actuals-delta").getAttribute("data-micros")) ?? "x",
  );
  expect(newMicros - oldMicros).toBe(delta);
  // the demo bill prices spot and savings-plan hours away from the list: the total moves
  expect(delta).not.toBe(0n);
  await expect(panel.getByTestId("actuals-counts")).toContainText(/\d+ of \d+ host-hours change/);

  // a closed month is only re-priced knowingly
  await expect(panel.getByTestId("actuals-apply")).toBeDisabled();
  await panel.getByTestId("actuals-reopen").check();
  await panel.getByTestId("actuals-apply").click();
  await expect(panel.getByTestId("actuals-result")).toContainText(`Applied actuals`, {
    timeout: 180_000,
  });
  await expect(panel.getByTestId("actuals-result")).toContainText("the month was reopened");

  // the page now says the month is on actuals; the reconciliation still sets the list estimate
  // beside the bill
  await expect(status).toContainText("is on actuals");
  const actualHours = Number(await status.getAttribute("data-actual-hours"));
  const hours = Number(await status.getAttribute("data-hours"));
  expect(actualHours).toBeGreaterThan(0);
  expect(actualHours).toBeLessThanOrEqual(hours);
  await expect(page.getByTestId("recon-estimate")).toHaveAttribute("data-micros", estimate ?? "x");

  // the costs page's month total is the applied one, and it says how much of it is actual
  await page.goto(`/costs?month=${month}`);
  const basis = page.getByTestId("cost-basis");
  await expect(basis).toContainText("Actuals:");
  await expect(basis).toHaveAttribute("data-actual-hours", String(actualHours));
  await expect(basis).toContainText("list estimates");
  await expect(page.getByTestId("cost-total")).toHaveAttribute("data-micros", String(newMicros));
});
