import { expect, test } from "@playwright/test";

// Runs against the demo: its scale policy (dry run) lists a would-be scale-out of a busy training
// pool within the first minutes (issue 25); its AWS spot hosts are priced at their zone's market
// price from the synthetic spot history it imports (issue 26); and finance uploads a Federal
// Reserve H.10 file on /settings/pricing: a bad file is refused line by line, a good one is
// previewed, then applied (issue 26).

const FIXTURES = "lib/pricing/import/fixtures";

test("the demo's scale policy lists a would-be scale-out with the pool's figures", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await expect
    .poll(
      async () => {
        const res = await request.get("/api/policies/scale-signals");
        const { signals } = (await res.json()) as {
          signals: { policyName: string; direction: string; mode: string }[];
        };
        return signals.some(
          (s) =>
            s.policyName === "Scale out busy pretraining pools" &&
            s.direction === "out" &&
            s.mode === "dry_run",
        );
      },
      { timeout: 200_000, intervals: [5_000] },
    )
    .toBe(true);
  await page.goto("/settings");
  const row = page
    .getByTestId("scale-signal-row")
    .filter({ hasText: "Scale out busy pretraining pools" })
    .first();
  await expect(row).toContainText("would scale out");
  await expect(row).toContainText(
    /type:(p4d\.24xlarge|p5en\.48xlarge|a3-highgpu-8g)\|team:research/,
  );
  await expect(row).toContainText("1 → 2");
  await expect(row).toContainText(/\d+ %/);
});

test("a demo spot host is priced at its zone's spot market price", async ({ page }) => {
  await page.goto("/instances/gpu-aws-use1-006");
  await expect(page.getByTestId("stat-price")).toContainText("spot market price in us-east-1b");
});

test("finance uploads exchange rates: a bad file is refused by line, a good one previewed and applied", async ({
  page,
}) => {
  await page.goto("/settings/pricing");
  const panel = page.getByTestId("rates-upload-panel");
  await panel
    .getByTestId("rates-upload-file")
    .setInputFiles(`${FIXTURES}/h10-cny-daily.malformed.csv`);
  await panel.getByTestId("rates-upload-preview").click();
  const error = panel.getByTestId("rates-upload-error");
  await expect(error).toContainText("Not read");
  await expect(error).toContainText("line 8: 3 fields, expected 2");
  await expect(error).toContainText("line 10:");

  await panel.getByTestId("rates-upload-file").setInputFiles(`${FIXTURES}/h10-cny-eur-daily.csv`);
  await expect(error).toHaveCount(0);
  await panel.getByTestId("rates-upload-preview").click();
  await expect(panel.getByTestId("rates-upload-series")).toContainText("EUR");
  await expect(panel.getByTestId("rates-upload-counts")).toContainText(/\d+ rates to add/);
  await panel.getByTestId("rates-upload-apply").click();
  await expect(panel.getByTestId("rates-upload-result")).toContainText("Imported");
  await expect(panel.getByTestId("rates-upload-apply")).toHaveCount(0);
});
