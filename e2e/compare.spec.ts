import { expect, test } from "@playwright/test";

// The cross-cloud comparison as finance sees it: offers per GPU model cheapest first, the month
// re-priced, and a benchmark CSV upload that turns into cost per unit of work beside the offer.
// A bad CSV is refused naming its line, and nothing of it shows up.

test.use({ storageState: "test-results/.auth/finance.json" });

const HEADER = "provider,instanceType,workload,unit,value,source,sourceDate,note";

test("compare page: ranked offers, re-priced month, benchmark upload with cost per unit", async ({
  page,
}) => {
  await page.goto("/compare");
  await expect(page.getByRole("heading", { name: "Compare clouds" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Compare" })).toHaveAttribute("aria-current", "page");

  // a figure: the H100 offers, cheapest per GPU-hour first (exact micros in data-micros); the
  // tables open on demand under the charts
  const h100 = page.locator('[data-testid="offer-model"][data-model="H100-80GB"]');
  await h100.locator("summary").click();
  await expect(h100.getByTestId("offer-row").first()).toBeVisible();
  const perGpu = await h100
    .getByTestId("per-gpu-hour")
    .evaluateAll((els) => els.map((e) => BigInt(e.getAttribute("data-micros") ?? "x")));
  expect(perGpu.length).toBeGreaterThan(1);
  expect(perGpu[0]).toBeGreaterThan(0n);
  expect([...perGpu].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(perGpu);
  await expect(h100.getByTestId("per-gpu-hour").first()).toHaveText(/^\$\d+\.\d{4}$/);

  // the month re-priced is there (the demo has ledger hours), each column adding up
  await expect(page.getByTestId("reprice")).toBeVisible();
  await expect(page.getByTestId("reprice-model").first()).toBeVisible();

  // filters: one provider only
  await page.getByTestId("filter-provider").selectOption("gcp");
  await expect(h100.getByTestId("offer-row").first()).toContainText("gcp");
  await page.getByTestId("filter-provider").selectOption("");

  // a bad CSV is refused with its line number
  await page.getByTestId("benchmark-csv").setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${HEADER}\naws,p5.48xlarge,E2E bad,tokens/s,-1,e2e,2025-11,\n`),
  });
  await expect(page.getByTestId("benchmark-error")).toContainText("line 2");
  await expect(page.getByTestId("benchmark-row").filter({ hasText: "E2E bad" })).toHaveCount(0);

  // a good CSV: the result shows with its cost per unit of work, in the table and by the offer
  await page.getByTestId("benchmark-csv").setInputFiles({
    name: "bench.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      `${HEADER}\naws,p5.48xlarge,E2E Llama 2 70B,tokens/s,24525,https://example.test/e2e,2025-11,e2e\n`,
    ),
  });
  await expect(page.getByTestId("benchmark-notice")).toContainText("Imported 1 result(s)");
  const row = page.getByTestId("benchmark-row").filter({ hasText: "E2E Llama 2 70B" });
  await expect(row.getByTestId("benchmark-costs")).toContainText(
    /\$\d+\.\d{4} per million tokens \(On-demand\)/,
  );
  await expect(
    h100.getByTestId("work-costs").filter({ hasText: "E2E Llama 2 70B" }).first(),
  ).toContainText("per million tokens");

  await page.screenshot({ path: "/tmp/compare.png", fullPage: true });
});

test("compare page is refused to viewers", async ({ browser }) => {
  const ctx = await browser.newContext({ storageState: "test-results/.auth/viewer.json" });
  const res = await (await ctx.newPage()).goto("/compare");
  expect(res?.status()).toBe(403);
  await ctx.close();
});
