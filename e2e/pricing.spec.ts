import { expect, test, type APIRequestContext } from "@playwright/test";

// Finance prices the demo's unpriced on-prem DGX from the fleet page: its "unpriced" mark opens a
// price form filled in from the host, the saved price shows in the catalogue and the fleet's burn
// grows by exactly that price; retiring it makes the host unpriced again. The test leaves the
// catalogue as it found it (the other specs expect the DGX unpriced).

test.use({ storageState: "test-results/.auth/finance.json" });

type Burn = { perHourMicros: string; unpricedHosts: number };

async function burn(request: APIRequestContext): Promise<Burn> {
  const res = await request.get("/api/fleet");
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { burn: Burn }).burn;
}

async function retireE2ePrices(request: APIRequestContext): Promise<void> {
  const list = (await (await request.get("/api/pricing")).json()) as {
    rows: { id: string; source: string }[];
  };
  for (const r of list.rows)
    if (r.source.startsWith("E2E")) await request.post(`/api/pricing/${r.id}/retire`, { data: {} });
}

test.describe("pricing catalogue", () => {
  test.beforeEach(async ({ request }) => retireE2ePrices(request));
  test.afterEach(async ({ request }) => retireE2ePrices(request));

  test("an unpriced host links to a prefilled form; the saved price changes the burn", async ({
    page,
    request,
  }) => {
    const before = await burn(request);
    expect(before.unpricedHosts).toBeGreaterThan(0);

    await page.goto("/");
    const row = page.locator('[data-testid="instance-row"]', {
      has: page.getByTestId("unpriced-link"),
    });
    await expect(row.first()).toBeVisible();
    await row.first().getByTestId("unpriced-link").click();

    await expect(page).toHaveURL(/\/settings\?addPrice=1&provider=onprem&instanceType=dgx-a100/);
    const form = page.getByTestId("price-form");
    await expect(form).toBeVisible();
    await expect(form.getByTestId("price-provider")).toHaveValue("onprem");
    await expect(form.getByTestId("price-instanceType")).toHaveValue("dgx-a100");
    await expect(form.getByTestId("price-pricingModel")).toHaveValue("reserved");
    await expect(form.getByTestId("price-gpuCount")).toHaveValue("8");

    // the API's own schema checks the form: nothing is sent until it is right
    await form.getByTestId("price-usdPerHour").fill("twenty");
    await form.getByTestId("price-save").click();
    await expect(form).toContainText("amount in dollars");
    await expect(form).toContainText("GiB per GPU");
    await expect(form).toContainText("source is required");
    await expect(form).toContainText("GPU model is required");

    await form.getByTestId("price-usdPerHour").fill("20.5");
    await form.getByTestId("price-gpuModel").fill("A100-80GB");
    await form.getByTestId("price-gpuMemoryGiB").fill("80");
    await form.getByTestId("price-source").fill("E2E amortized purchase price");
    await form.getByTestId("price-save").click();
    await expect(form).toHaveCount(0);
    await expect(page.getByTestId("price-saved")).toContainText("onprem dgx-a100");

    const saved = page.locator(
      '[data-testid="pricing-row"][data-type="dgx-a100"][data-origin="user"]',
    );
    await expect(saved).toHaveCount(1);
    await expect(saved.locator("td.num")).toHaveAttribute("data-micros", "20500000");
    await expect(saved).toContainText("added or changed by finance@demo.gpufleet.test");

    // the burn now includes the DGX: exactly 20.5 $/h more, and one unpriced host fewer
    await expect
      .poll(async () => burn(request), { timeout: 30_000 })
      .toEqual({
        ...before,
        perHourMicros: String(BigInt(before.perHourMicros) + 20_500_000n),
        unpricedHosts: before.unpricedHosts - 1,
      });

    // retire it: asked twice, then the row leaves the catalogue and the host is unpriced again
    await saved.getByTestId("price-retire").click();
    await saved.getByTestId("price-retire").click();
    await expect(page.getByTestId("price-saved")).toContainText("Retired");
    await expect(saved).toHaveCount(0);
    await page.getByTestId("pricing-show-retired").check();
    await expect(
      page.locator('[data-testid="pricing-row"][data-type="dgx-a100"][data-retired="yes"]'),
    ).toHaveCount(1);
    await expect.poll(async () => (await burn(request)).unpricedHosts).toBe(before.unpricedHosts);
  });

  test("the costs page lists hosts with no price now, each linked to the form", async ({
    page,
  }) => {
    await page.goto("/costs");
    const rows = page.getByTestId("unpriced-now-row");
    await expect(rows.filter({ hasText: "dgx-a100" })).toHaveCount(1);
    await rows.filter({ hasText: "dgx-a100" }).getByTestId("add-price-link").click();
    await expect(page.getByTestId("price-form")).toBeVisible();
    await expect(page.getByTestId("price-instanceType")).toHaveValue("dgx-a100");
  });
});
