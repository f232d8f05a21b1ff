import { expect, test } from "@playwright/test";

interface Row {
  id: string;
  hostname: string;
  gpus: number;
  state: string;
}

async function multiGpuHost(request: import("@playwright/test").APIRequestContext): Promise<Row> {
  const res = await request.get("/api/instances?state=up&sort=gpus&dir=desc");
  expect(res.ok()).toBe(true);
  const { rows } = (await res.json()) as { rows: Row[] };
  const host = rows.find((r) => r.gpus > 1);
  if (!host) throw new Error("the demo should have a multi-GPU host that is up");
  return host;
}

test.describe("instance page", () => {
  test("shows per-GPU charts, processes and cost", async ({ page, request }) => {
    const host = await multiGpuHost(request);
    // the old id address redirects to the host name, the page's own address
    await page.goto(`/instances/${host.id}`);
    await expect(page).toHaveURL(new RegExp(`/instances/${encodeURIComponent(host.hostname)}$`));
    await expect(page.getByTestId("instance-hostname")).toHaveText(host.hostname);
    await expect(page.getByTestId("gpu-row")).toHaveCount(host.gpus);

    const charts = page.getByTestId("gpu-charts");
    for (const metric of ["util", "memUsedBytes", "powerWatts", "tempCelsius", "smClockHz"]) {
      await expect(charts.getByTestId(`chart-gpu-${metric}`)).toBeVisible();
    }
    // one line per GPU in the utilization chart, each with a drawn path
    const lines = charts.getByTestId("chart-gpu-util").locator("path.recharts-line-curve");
    await expect(lines).toHaveCount(host.gpus);
    await expect(lines.first()).toHaveAttribute("d", /^M/);

    await expect(page.getByTestId("stat-price")).toBeVisible();
    await expect(page.getByTestId("stat-month")).toHaveAttribute("data-micros", /^\d+$/);
    await expect(page.getByTestId("link-alerts")).toHaveAttribute(
      "href",
      `/alerts?host=${host.id}`,
    );
    await expect(page.getByTestId("link-recommendations")).toHaveAttribute(
      "href",
      `/recommendations?host=${host.id}`,
    );
  });

  test("is reachable from the fleet table and keeps its range in the URL", async ({
    page,
    request,
  }) => {
    const host = await multiGpuHost(request);
    await page.goto("/");
    await page
      .getByTestId("instance-row")
      .getByRole("link", { name: host.hostname, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/instances/${encodeURIComponent(host.hostname)}`));
    await page.getByTestId("range-picker").getByText("24h", { exact: true }).click();
    await expect(page).toHaveURL(/range=24h/);
    await page.reload();
    await expect(page.getByTestId("range-picker").locator("input[value='24h']")).toBeChecked();
    await expect(page.getByTestId("chart-gpu-util")).toBeVisible();
  });

  test("an unpriced instance shows 'unpriced', never $0", async ({ page, request }) => {
    const res = await request.get("/api/instances");
    const { rows } = (await res.json()) as {
      rows: (Row & { pricePerHourMicros: string | null })[];
    };
    const unpriced = rows.find((r) => r.pricePerHourMicros === null);
    if (!unpriced) throw new Error("the demo has one unpriced on-prem host");
    await page.goto(`/instances/${unpriced.id}`);
    await expect(page.getByTestId("stat-price-value")).toHaveText("unpriced");
    await expect(page.getByTestId("stat-idle-now-value")).toHaveText("unpriced");
    await expect(page.getByTestId("stat-month-value")).not.toHaveText("$0.00");
  });

  test("an unknown instance says so instead of spinning", async ({ page, request }) => {
    expect((await request.get("/api/instances/no-such-host")).status()).toBe(404);
    await page.goto("/instances/no-such-host");
    await expect(page.getByTestId("instance-not-found")).toBeVisible();
  });
});
