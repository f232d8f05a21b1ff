import { expect, test } from "@playwright/test";

// Runs against the demo (≥ 24 hosts, ≥ 100 GPUs, five teams). Numbers are read from data-*
// attributes, not from formatted text.

type Group = { key: string; gpus: number };
type Summary = {
  generatedAt: string;
  gpus: { known: number; reporting: number };
  groups: Record<"team" | "provider" | "model" | "state", Group[]>;
  attention: { total: number; byReason: Record<string, number> };
};

test.describe("fleet page", () => {
  test("shows the demo's GPU count, groups that add up to it, the problem list and a chart", async ({
    page,
    request,
  }) => {
    const api = await request.get("/api/fleet");
    expect(api.ok()).toBe(true);
    const summary = (await api.json()) as Summary;
    expect(summary.gpus.known).toBeGreaterThanOrEqual(100);
    expect(summary).not.toHaveProperty("grid");

    await page.goto("/");
    const stat = page.getByTestId("stat-gpus");
    await expect(stat).toBeVisible();
    await expect(stat).toHaveAttribute("data-known", String(summary.gpus.known));
    await expect(page.getByTestId("stat-gpus-value")).toContainText(`/ ${summary.gpus.known}`);

    // groups by team, collapsed: their counts add up to the fleet, and no cell is drawn yet
    const groups = page.getByTestId("fleet-group");
    await expect(groups).toHaveCount(summary.groups.team.length);
    const counts = await groups.evaluateAll((els) => els.map((e) => Number(e.dataset.gpus)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(summary.gpus.known);
    await expect(page.getByTestId("gpu-cell")).toHaveCount(0);

    // opening a group draws a cell for each of its GPUs
    const first = groups.first();
    await first.getByTestId("group-toggle").click();
    await expect(first.getByTestId("group-toggle")).toHaveAttribute("aria-expanded", "true");
    await expect(first.getByTestId("gpu-cell")).toHaveCount(counts[0] ?? 0);

    // the problem list: the demo has idle GPUs, most urgent first
    const idle = summary.attention.byReason.idle;
    expect(idle).toBeGreaterThan(0);
    await expect(page.getByTestId("attention-idle")).toHaveAttribute("data-count", String(idle));
    await expect(page.getByTestId("attention-row").first()).toBeVisible();
    expect(await page.getByTestId("attention-row").count()).toBe(
      Math.min(50, summary.attention.total),
    );

    // the chart draws an area path once the series has loaded
    const area = page.getByTestId("chart-fleet-util").locator("path.recharts-area-curve");
    await expect(area.first()).toHaveAttribute("d", /^M[\d.-]/);

    // held-but-idle GPUs are marked by shape, not only colour (the demo has some): by state
    await page.getByTestId("group-by-state").click();
    await expect(page).toHaveURL(/[?&]group=state/);
    const held = page.locator('[data-testid="fleet-group"][data-key="held_idle"]');
    await held.getByTestId("group-toggle").click();
    // its cells come in a fetch after the click
    await expect(
      held.locator('[data-testid="gpu-cell"][data-status="held_idle"]').first(),
    ).toBeVisible();
    await expect(
      held.locator('[data-testid="gpu-cell"]:not([data-status="held_idle"])'),
    ).toHaveCount(0);
    await expect(page.getByTestId("time-zone")).toContainText("Europe/Berlin");
  });

  test("the grouping is kept in the URL and a reload shows the same groups", async ({ page }) => {
    await page.goto("/?group=model");
    await expect(page.getByTestId("group-by-model")).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("fleet-groups")).toHaveAttribute("data-by", "model");
    await page.getByTestId("group-by-team").click();
    await expect(page).not.toHaveURL(/group=/);
    await expect(page.getByTestId("fleet-groups")).toHaveAttribute("data-by", "team");
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
    const zipped = (await gz.json()) as Summary;

    const plain = await request.get("/api/fleet", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    const text = (await plain.json()) as Summary;
    expect(text.gpus.known).toBe(zipped.gpus.known);
    expect(zipped.groups.state.reduce((a, g) => a + g.gpus, 0)).toBe(zipped.gpus.known);
  });

  test("a group's GPUs and the problem list page through /api/fleet/gpus", async ({ request }) => {
    const summary = (await (await request.get("/api/fleet")).json()) as Summary;
    const team = summary.groups.team[0];
    if (!team) throw new Error("the demo has teams");
    const res = await request.get(
      `/api/fleet/gpus?by=team&key=${encodeURIComponent(team.key)}&pageSize=7`,
    );
    expect(res.ok()).toBe(true);
    const page = (await res.json()) as { total: number; pages: number; gpus: unknown[] };
    expect(page.total).toBe(team.gpus);
    expect(page.pages).toBe(Math.ceil(team.gpus / 7));
    expect(page.gpus).toHaveLength(Math.min(7, team.gpus));
    const problems = (await (await request.get("/api/fleet/gpus?by=attention")).json()) as {
      total: number;
    };
    expect(problems.total).toBe(summary.attention.total);
    const bad = await request.get("/api/fleet/gpus?by=team&pageSize=10000");
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe("bad_request");
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
  test("a group of 1,000 GPUs draws one page of 500 cells at a time", async ({ page, request }) => {
    const real = (await (await request.get("/api/fleet")).json()) as Summary;
    const realPage = (await (
      await request.get("/api/fleet/gpus?by=attention&key=all&pageSize=1")
    ).json()) as { gpus: Record<string, unknown>[] };
    const template = realPage.gpus[0];
    if (!template) throw new Error("the demo has GPUs that need attention");
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
      reason: null,
    }));
    const group = {
      key: "synthetic",
      hosts: 125,
      gpus: 1000,
      statuses: { busy: 500, held_idle: 167, empty_idle: 167, mig: 0, not_reporting: 166 },
      utilMean: 0.5,
      attention: 500,
    };
    await page.route("**/api/fleet", (route) =>
      route.fulfill({ json: { ...real, groups: { ...real.groups, team: [group] } } }),
    );
    await page.route("**/api/fleet/gpus?*", (route) => {
      const u = new URL(route.request().url());
      const p = Number(u.searchParams.get("page") ?? "1");
      const size = Number(u.searchParams.get("pageSize") ?? "200");
      return route.fulfill({
        json: {
          generatedAt: real.generatedAt,
          by: "team",
          key: "synthetic",
          total: 1000,
          page: p,
          pageSize: size,
          pages: Math.ceil(1000 / size),
          gpus: grid.slice((p - 1) * size, p * size),
        },
      });
    });
    await page.goto("/");
    const row = page.locator('[data-testid="fleet-group"][data-key="synthetic"]');
    await expect(row).toContainText("1,000 GPUs");
    await expect(page.getByTestId("gpu-cell")).toHaveCount(0);
    await row.getByTestId("group-toggle").click();
    await expect(row.getByTestId("gpu-cell")).toHaveCount(500);
    await expect(row.getByTestId("grid-host")).toHaveCount(63);
    await expect(row.locator('[data-testid="gpu-cell"]').first()).toHaveAttribute(
      "aria-label",
      /synthetic-000 GPU 0/,
    );
    await row.getByRole("button", { name: "Next" }).click();
    await expect(row.locator('[data-testid="gpu-cell"]').first()).toHaveAttribute(
      "aria-label",
      /synthetic-062 GPU 4/,
    );
    await expect(row.getByTestId("gpu-cell")).toHaveCount(500);
    // the page stays interactive: a filter applies promptly
    await page.getByTestId("filter-q").fill("gpu-");
    await expect(page).toHaveURL(/q=gpu-/);
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
