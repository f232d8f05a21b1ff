import { expect, test } from "@playwright/test";

// Runs against the demo (≥ 24 hosts, ≥ 100 GPUs, five teams). Numbers are read from data-*
// attributes, not from formatted text.

test.describe("fleet page", () => {
  test("shows the demo's GPU count, a grid cell per GPU and a non-empty chart", async ({
    page,
    request,
  }) => {
    const api = await request.get("/api/fleet");
    expect(api.ok()).toBe(true);
    const summary = (await api.json()) as { gpus: { known: number; reporting: number } };
    expect(summary.gpus.known).toBeGreaterThanOrEqual(100);

    await page.goto("/");
    const stat = page.getByTestId("stat-gpus");
    await expect(stat).toBeVisible();
    await expect(stat).toHaveAttribute("data-known", String(summary.gpus.known));
    await expect(page.getByTestId("stat-gpus-value")).toContainText(`/ ${summary.gpus.known}`);
    await expect(page.getByTestId("gpu-cell")).toHaveCount(summary.gpus.known);

    // the chart draws an area path once the series has loaded
    const area = page.getByTestId("chart-fleet-util").locator("path.recharts-area-curve");
    await expect(area.first()).toHaveAttribute("d", /^M[\d.-]/);

    // held-but-idle GPUs are marked by shape, not only colour (the demo has some)
    expect(
      await page.locator('[data-testid="gpu-cell"][data-status="held_idle"]').count(),
    ).toBeGreaterThan(0);
    await expect(page.getByTestId("time-zone")).toContainText("Europe/Berlin");
  });

  test("the fleet API comes gzipped to a client that takes gzip, plain to one that does not", async ({
    request,
  }) => {
    // the gzip is made once per snapshot by the route; scripts/serve.ts sets its Content-Encoding
    const gz = await request.get("/api/fleet", { headers: { "accept-encoding": "gzip" } });
    expect(gz.ok()).toBe(true);
    expect(gz.headers()["content-encoding"]).toBe("gzip");
    expect(gz.headers()["cache-control"]).toBe("no-store, no-transform");
    expect(gz.headers()["x-gpufleet-content-encoding"]).toBeUndefined();
    const zipped = (await gz.json()) as { gpus: { known: number }; grid: unknown[] };

    const plain = await request.get("/api/fleet", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    const text = (await plain.json()) as { gpus: { known: number }; grid: unknown[] };
    expect(text.gpus.known).toBe(zipped.gpus.known);
    expect(zipped.grid).toHaveLength(zipped.gpus.known);
  });

  test("switching the range keeps the chart and writes the range into the URL", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByTestId("chart-fleet-util")).toBeVisible();
    await page.getByTestId("range-picker").getByText("6h", { exact: true }).click();
    await expect(page).toHaveURL(/[?&]range=6h/);
    await expect(
      page.getByTestId("chart-fleet-util").locator("path.recharts-area-curve").first(),
    ).toHaveAttribute("d", /^M/);
  });

  test("filtering the instance table by team narrows it and survives a reload", async ({
    page,
  }) => {
    await page.goto("/");
    const rows = page.getByTestId("instance-row");
    await expect(rows.first()).toBeVisible();
    const all = await rows.count();
    expect(all).toBeGreaterThanOrEqual(24);

    await page.getByTestId("filter-team").selectOption("research");
    await expect(page).toHaveURL(/[?&]team=research/);
    // the URL changes first; wait for the table to re-render with only that team
    await expect(
      page.locator('[data-testid="instance-row"]:not([data-team="research"])'),
    ).toHaveCount(0);
    const narrowed = await rows.count();
    expect(narrowed).toBeGreaterThan(0);
    expect(narrowed).toBeLessThan(all);
    await expect(page.getByTestId("instance-count")).toContainText(`${narrowed} of ${all}`);

    await page.reload();
    await expect(page.getByTestId("filter-team")).toHaveValue("research");
    await expect(rows).toHaveCount(narrowed);

    await page.getByTestId("filter-clear").click();
    await expect(rows).toHaveCount(all);
    await expect(page).not.toHaveURL(/team=/);
  });

  test("sorting by a column is kept in the URL", async ({ page }) => {
    await page.goto("/?sort=gpus&dir=desc");
    const rows = page.getByTestId("instance-row");
    await expect(rows.first()).toBeVisible();
    const gpuCells = await rows.evaluateAll((els) =>
      els.map((e) => Number(e.querySelectorAll("td")[5]?.textContent?.split("/").pop())),
    );
    expect(gpuCells[0]).toBeGreaterThanOrEqual(gpuCells[gpuCells.length - 1] ?? 0);
    await page.getByTestId("sort-hostname").click();
    await expect(page).not.toHaveURL(/sort=/);
  });

  test("the API rejects a bad parameter with a 400 and a message", async ({ request }) => {
    const res = await request.get("/api/fleet/series?range=2h");
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("range");
    const doc = await request.get("/api/openapi.json");
    expect(((await doc.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });
});

test.describe("fleet page under load and failure", () => {
  test("renders 1,000 GPUs without long main-thread stalls", async ({ page, request }) => {
    const real = (await (await request.get("/api/fleet")).json()) as {
      grid: Record<string, unknown>[];
      gpus: { known: number; reporting: number };
    };
    const template = real.grid[0];
    if (!template) throw new Error("the demo has GPUs");
    const statuses = ["busy", "held_idle", "empty_idle", "not_reporting", "busy", "busy"];
    const grid = Array.from({ length: 1000 }, (_, i) => ({
      ...template,
      uuid: `GPU-synthetic-${i}`,
      hostId: `host-${Math.floor(i / 8)}`,
      hostname: `synthetic-${String(Math.floor(i / 8)).padStart(3, "0")}`,
      index: i % 8,
      util: (i % 100) / 100,
      migSlices: 0,
      status: statuses[i % statuses.length],
    }));
    await page.route("**/api/fleet", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as Record<string, unknown>;
      await route.fulfill({
        json: { ...body, grid, gpus: { known: 1000, reporting: 1000 } },
      });
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto("/");
    await expect(page.getByTestId("gpu-cell")).toHaveCount(1000);
    await expect(page.getByTestId("grid-host")).toHaveCount(125);
    // the page stays interactive: a filter applies promptly
    await page.getByTestId("filter-q").fill("gpu-");
    await expect(page).toHaveURL(/q=gpu-/);
    const longest = await page.evaluate(
      () => (window as unknown as { __longest: number }).__longest,
    );
    expect(longest).toBeLessThan(1000);
  });

  test("a failing API keeps the last data on screen with a banner", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("stat-gpus")).toBeVisible();
    await page.route("**/api/fleet", (route) =>
      route.fulfill({ status: 503, json: { error: "metrics source unavailable: timeout" } }),
    );
    // the next 15 s poll fails (after two quick retries) and the banner appears over kept data
    const banner = page.getByTestId("source-banner");
    await expect(banner).toBeVisible({ timeout: 45_000 });
    await expect(banner).toContainText("Last good data");
    await expect(page.getByTestId("stat-gpus")).toBeVisible();
  });
});
