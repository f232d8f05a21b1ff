import { expect, test } from "@playwright/test";
import { buildFleet } from "../exporter/sim/fleet.ts";
import { addMonths, monthOf } from "../lib/core/months.ts";
import { demoBillCsv } from "../lib/demo/billing.ts";
import { catalogueRows } from "../lib/pricing/catalogue.ts";

// Finance reconciles last month in the demo: imports the demo's bill through the page (preview,
// then import, replacing the one the demo seeded), sees the variance and the two GPU instances
// the demo does not monitor, and every table adds up to the bill's total.

test.use({ storageState: "test-results/.auth/finance.json" });

test("finance imports a bill and sees the variance and the GPUs nobody monitors", async ({
  page,
}) => {
  test.setTimeout(240_000); // importing a month of a 23-instance bill takes a while on a busy host
  const month = addMonths(monthOf(new Date()), -1);
  const csv = [
    ...demoBillCsv(
      buildFleet({ seed: 42, hosts: 24 }) /* the demo's seed and size */,
      catalogueRows(),
      month,
    ),
  ].join("");

  await page.goto("/costs");
  await page.getByTestId("reconcile-link").click();
  await expect(page.locator("main h1")).toHaveText("Reconciliation");

  await page.getByTestId("bill-import-file").setInputFiles({
    name: `demo-focus-${month}.csv`,
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await page.getByTestId("bill-import-preview").click();
  await expect(page.getByTestId("bill-import-summary")).toContainText("691 kept");
  await page.getByTestId("bill-import-apply").click();
  await expect(page.getByTestId("bill-import-result")).toContainText("replacing 1 earlier import", {
    timeout: 180_000,
  });

  const variance = await page.getByTestId("recon-variance").getAttribute("data-micros");
  expect(BigInt(variance ?? "0")).not.toBe(0n);
  const unmonitored = page.getByTestId("unmonitored-row");
  await expect(unmonitored).toHaveCount(2);
  await expect(unmonitored.nth(0)).toContainText(/p4d\.24xlarge|NC4as_T4_v3/);
  await expect(page.getByTestId("unmonitored")).toContainText("ml-scratch-t4");
  await expect(page.getByTestId("unmonitored")).toContainText("i-0badc0ffee5a4d001");
  // the unmonitored p4d's month is the largest variance (nothing estimated it); savings-plan
  // hosts follow, with their reason
  await expect(page.getByTestId("largest-variances-row").first()).toContainText(
    "i-0badc0ffee5a4d001",
  );
  await expect(page.getByTestId("largest-variances")).toContainText("commitment applied");
  await expect(page.getByTestId("recon-hosts")).toContainText("spot price differed");

  // the per-host table's effective column adds up to its total row, to the cent
  const cents = (
    await page
      .getByTestId("recon-hosts")
      .locator('[data-col="effective"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-cents") ?? "x"))
  ).map((c) => BigInt(c.replace(".", "")));
  const total = cents.pop() ?? 0n;
  expect(cents.reduce((a, b) => a + b, 0n)).toBe(total);
});
