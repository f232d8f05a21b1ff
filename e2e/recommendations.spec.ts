import { expect, test } from "@playwright/test";

// Runs against the demo, whose ledger yields recommendations from the first minute (idle hosts
// to release, on-demand hosts to reserve, interruptible ones for spot). The dismissed one is
// reopened afterwards so a re-run finds it open again.

test.use({ storageState: "test-results/.auth/finance.json" });

test.describe("recommendations page", () => {
  let dismissedId = "";
  test.afterEach(async ({ request }) => {
    if (dismissedId) await request.post(`/api/recommendations/${dismissedId}/reopen`, { data: {} });
  });

  test("lists savings highest first with evidence, and dismisses one with a reason", async ({
    page,
  }) => {
    await page.goto("/recommendations");
    const rows = page.getByTestId("reco-row");
    await expect(rows.first()).toBeVisible({ timeout: 60_000 });
    const total = page.getByTestId("reco-total");
    await expect(total).toHaveAttribute("data-micros", /^[1-9]\d*$/);

    // sorted by monthly saving, highest first
    const savings = await page
      .getByTestId("reco-saving")
      .evaluateAll((els) => els.map((e) => BigInt(e.getAttribute("data-micros") ?? "0")));
    expect(savings.length).toBeGreaterThan(2);
    for (let i = 1; i < savings.length; i++) {
      expect(savings[i - 1] ?? 0n).toBeGreaterThanOrEqual(savings[i] ?? 0n);
    }
    // the demo's idle p3.2xlarge: $3.06/h × 730 h
    await expect(
      page.locator('[data-testid="reco-row"][data-kind="idle_release"]', {
        hasText: "gpu-aws-usw2-010",
      }),
    ).toHaveCount(1);
    await expect(
      page
        .locator('[data-testid="reco-row"][data-kind="idle_release"]', {
          hasText: "gpu-aws-usw2-010",
        })
        .getByTestId("reco-saving"),
    ).toHaveAttribute("data-micros", "2233800000");

    const first = rows.first();
    dismissedId = (await first.getAttribute("data-id")) ?? "";
    await first.getByTestId("reco-evidence-toggle").click();
    await expect(first.getByTestId("chart-evidence")).toBeVisible();
    await expect(first.getByTestId("reco-evidence")).toContainText("730");

    // the reason is required: the form says so before sending anything
    await first.getByTestId("reco-dismiss").click();
    await first.getByTestId("reco-dismiss-confirm").click();
    await expect(first.getByTestId("reco-dismiss-error")).toContainText("say why");
    await first.getByTestId("reco-dismiss-reason").fill("e2e: capacity is reserved for a launch");
    await first.getByTestId("reco-dismiss-confirm").click();

    const gone = page.locator(`[data-testid="reco-row"][data-id="${dismissedId}"]`);
    await expect(gone).toHaveCount(0);
    await page.getByTestId("reco-filter-state").getByText("dismissed", { exact: true }).click();
    await expect(page).toHaveURL(/state=dismissed/);
    await expect(gone).toHaveAttribute("data-state", "dismissed");
    await expect(gone).toContainText("capacity is reserved for a launch");
    await expect(gone).toContainText("finance@demo.gpufleet.test");

    // a recompute does not bring it back
    await page.getByTestId("reco-recompute").click();
    await expect(page.getByTestId("reco-recompute")).toHaveText("Recompute now");
    await expect(gone).toHaveAttribute("data-state", "dismissed");
  });
});
