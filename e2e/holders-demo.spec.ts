import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// Issue 24 on a fresh demo: the backfilled month names who held the GPUs (the by-holder table is
// more than "not held" and adds up, in the cents shown, to the month's total shown), every busy GPU
// names its holder on its instance page, the fleet grid's tooltip names it, and the demo viewer
// (the directory maps alice to them) sees GPUs held since before this hour on My GPUs.

interface Row {
  id: string;
  hostname: string;
}

interface Detail {
  gpus: { index: number; status: string; holders: string[] }[];
}

/** "$12,345.67" → 1234567 (cents), as the page shows it. */
function cents(text: string): bigint {
  const m = /(-?)\$?([\d,]+)\.(\d{2})/.exec(text.trim());
  if (!m) throw new Error(`not an amount: ${text}`);
  return BigInt(`${m[1]}${(m[2] ?? "").replaceAll(",", "")}${m[3]}`);
}

async function upHosts(request: APIRequestContext): Promise<Row[]> {
  const res = await request.get("/api/instances?state=up");
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { rows: Row[] }).rows;
}

async function heldRows(page: Page) {
  const rows = page
    .getByTestId("holder-table")
    .locator('[data-testid="holder-row"][data-held="yes"]');
  return rows.evaluateAll((els) =>
    els.map((e) => ({
      holder: e.querySelector("td")?.textContent ?? "",
      idle: e.querySelector('[data-testid="holder-idle"]')?.textContent ?? "",
      cost: e.querySelector('[data-testid="holder-cost"]')?.textContent ?? "",
    })),
  );
}

test.describe("holders on a fresh demo", () => {
  test("the costs page's by-holder table has the backfilled month's holders and adds up", async ({
    page,
  }) => {
    await page.goto("/costs");
    const table = page.getByTestId("holder-table");
    await expect(
      table.locator('[data-testid="holder-row"][data-held="yes"]').first(),
    ).toBeVisible();
    // a ledger hour may land between the page's two reads: then a reload agrees again
    await expect(async () => {
      await page.reload();
      const total = cents(await page.getByTestId("cost-total-value").innerText());
      const shown = await table.getByTestId("holder-cost").allInnerTexts();
      expect(shown.length).toBeGreaterThan(1);
      expect(shown.reduce((s, t) => s + cents(t), 0n)).toBe(total);
      expect(cents(await table.getByTestId("holder-total-cost").innerText())).toBe(total);
    }).toPass({ timeout: 60_000 });

    const held = await heldRows(page);
    const people = held.map((r) => r.holder);
    expect(people).toContain("alice");
    expect(
      people.filter((p) => ["alice", "bob", "carol", "dave", "erin"].includes(p)).length,
    ).toBeGreaterThanOrEqual(3);
    // who holds idle GPUs: some holders were charged idle time
    expect(held.some((r) => cents(r.idle) > 0n)).toBe(true);
    // most of the month was held by someone
    const heldCents = held.reduce((s, r) => s + cents(r.cost), 0n);
    const notHeld = cents(
      await table
        .locator('[data-testid="holder-row"][data-held="no"] [data-testid="holder-cost"]')
        .innerText(),
    );
    expect(heldCents).toBeGreaterThan(notHeld);
  });

  test("every busy GPU names its holder on its instance page", async ({ page, request }) => {
    const hosts = await upHosts(request);
    let busyHost: Row | null = null;
    for (const h of hosts) {
      const d = (await (await request.get(`/api/instances/${h.id}`)).json()) as Detail;
      const busy = d.gpus.filter((g) => g.status === "busy");
      expect(
        busy.filter((g) => g.holders.length === 0),
        h.hostname,
      ).toEqual([]);
      if (busy.length > 0) busyHost ??= h;
    }
    if (!busyHost) throw new Error("the demo should have a busy GPU");
    await page.goto(`/instances/${encodeURIComponent(busyHost.hostname)}`);
    const busyRows = page.locator('[data-testid="gpu-row"][data-status="busy"]');
    await expect(busyRows.first()).toBeVisible();
    for (const text of await busyRows.getByTestId("gpu-holders").allInnerTexts()) {
      expect(text).toMatch(/\S+ · \S+/);
    }
  });

  test("the fleet grid's tooltip names who holds a busy GPU", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("group-by-state").click();
    const busy = page.locator('[data-testid="fleet-group"][data-key="busy"]');
    await busy.getByTestId("group-toggle").click();
    const cell = busy.locator('[data-testid="gpu-cell"][data-status="busy"]').first();
    await expect(cell).toHaveAttribute("title", / · held by \S/);
    await expect(cell).toHaveAttribute("aria-label", / · held by \S/);
  });
});

test.describe("my GPUs on a fresh demo", () => {
  test.use({ storageState: "test-results/.auth/viewer.json" });

  test("the demo viewer, mapped to alice, holds GPUs since before this hour", async ({ page }) => {
    await page.goto("/my-gpus");
    await expect(page.getByTestId("my-gpus-as")).toContainText("user alice");
    const rows = page.getByTestId("my-gpu-row");
    await expect(rows.first()).toBeVisible();
    for (const holders of await rows.locator("td:nth-child(5)").allInnerTexts()) {
      expect(holders).toContain("alice");
    }
    // the backfilled ledger hours are what "since" is read from
    const since = await rows.locator("td:nth-child(6)").allInnerTexts();
    expect(since.some((s) => s.trim() !== "this hour")).toBe(true);
  });
});
