import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";

// Money on the page carries exact micro-dollars in data-micros; every breakdown must sum to the
// total exactly (BigInt), its displayed (cent-rounded) rows in data-display-micros to the
// displayed total, and the CSV must be the per-instance table, row for row, then a total row.

const DIMENSIONS = ["provider", "team", "project", "instanceType", "pricingModel"];

async function micros(page: Page, selector: string, attr = "data-micros"): Promise<bigint[]> {
  const values = await page
    .locator(selector)
    .evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? "x"), attr);
  return values.map((v) => BigInt(v));
}

const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

/** Minimal RFC 4180 parser (quoted fields, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (ch !== "\r") field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

function decimalToMicros(d: string): bigint {
  const [whole = "0", frac = ""] = d.split(".");
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0").slice(0, 6));
}

async function expectReconciled(page: Page): Promise<bigint> {
  const total = page.getByTestId("cost-total");
  await expect(total).toHaveAttribute("data-micros", /^\d+$/);
  const totalMicros = BigInt((await total.getAttribute("data-micros")) ?? "x");
  expect(totalMicros).toBeGreaterThan(0n);
  for (const d of DIMENSIONS) {
    const rows = await micros(page, `[data-testid="breakdown-${d}"] [data-testid="breakdown-row"]`);
    expect(rows.length, `${d} rows`).toBeGreaterThan(0);
    expect(sum(rows), `${d} sums to the total`).toBe(totalMicros);
    const shown = await micros(
      page,
      `[data-testid="breakdown-${d}"] [data-testid="breakdown-row"]`,
      "data-display-micros",
    );
    const [shownTotal] = await micros(
      page,
      `[data-testid="breakdown-${d}"] [data-testid="breakdown-total"]`,
      "data-display-micros",
    );
    expect(sum(shown), `${d} displayed rows add up to the displayed total`).toBe(shownTotal);
  }
  const instances = await micros(page, '[data-testid="cost-instance-row"]');
  expect(sum(instances)).toBe(totalMicros);
  const shownInstances = await micros(
    page,
    '[data-testid="cost-instance-row"]',
    "data-display-micros",
  );
  const [shownTotal] = await micros(
    page,
    '[data-testid="cost-instance-total"]',
    "data-display-micros",
  );
  expect(sum(shownInstances)).toBe(shownTotal);
  return totalMicros;
}

test.describe("costs page", () => {
  test("breakdowns sum to the month total and month boundaries are stated as UTC", async ({
    page,
  }) => {
    await page.goto("/costs");
    await expectReconciled(page);
    await expect(page.getByTestId("utc-note")).toContainText("UTC");
    await expect(page.getByTestId("budget-panel")).toBeVisible();
    // the unpriced on-prem host shows as unpriced, never $0
    await expect(
      page.locator('[data-testid="cost-instance-row"][data-priced="no"]').first(),
    ).toContainText("unpriced");
  });

  test("the previous month also reconciles and is addressable by URL", async ({ page }) => {
    await page.goto("/costs");
    await expect(page.getByTestId("cost-total")).toHaveAttribute("data-micros", /^\d+$/);
    const current = await page.getByTestId("month-input").inputValue();
    await page.getByTestId("month-prev").click();
    await expect(page).toHaveURL(/[?&]month=\d{4}-\d{2}/);
    const previous = new URL(page.url()).searchParams.get("month");
    expect(previous).not.toBe(current);
    await expect(page.getByTestId("month-input")).toHaveValue(previous ?? "");
    await page.reload();
    await expectReconciled(page);
  });

  test("the CSV export matches the per-instance table", async ({ page }) => {
    await page.goto("/costs");
    const totalMicros = await expectReconciled(page);
    const table = await page.locator('[data-testid="cost-instance-row"]').evaluateAll((els) =>
      els.map((e) => ({
        hostId: e.getAttribute("data-host-id"),
        micros: e.getAttribute("data-micros"),
        idle: e.getAttribute("data-idle-micros"),
        priced: e.getAttribute("data-priced"),
        upHours: e.querySelectorAll("td")[7]?.textContent,
      })),
    );

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("csv-export").click(),
    ]);
    const path = await download.path();
    const [header, ...withTotal] = parseCsv(await readFile(path, "utf8"));
    // the last row holds the month's totals (priced = "total")
    const rows = withTotal.slice(0, -1);
    const totalRow = withTotal.at(-1) ?? [];
    expect(header).toBeDefined();
    const col = (name: string) => {
      const i = header?.indexOf(name) ?? -1;
      expect(i, `column ${name}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const [hostId, cost, idle, priced, upHours] = [
      col("host_id"),
      col("cost"),
      col("idle_cost"),
      col("priced"),
      col("up_hours"),
    ];
    expect(rows).toHaveLength(table.length);
    rows.forEach((r, i) => {
      const t = table[i];
      expect(r[hostId]).toBe(t?.hostId);
      expect(r[priced]).toBe(t?.priced);
      expect(r[upHours]).toBe(t?.upHours);
      if (t?.priced === "no") expect(r[cost]).toBe("");
      else {
        expect(decimalToMicros(r[cost] ?? "x").toString()).toBe(t?.micros);
        expect(decimalToMicros(r[idle] ?? "x").toString()).toBe(t?.idle);
      }
    });
    const csvTotal = sum(rows.map((r) => (r[cost] ? decimalToMicros(r[cost] ?? "0") : 0n)));
    expect(csvTotal).toBe(totalMicros);
    expect(totalRow[priced]).toBe("total");
    expect(decimalToMicros(totalRow[cost] ?? "x")).toBe(totalMicros);
    // the rounded column adds up to the total row's cents exactly
    const rounded = col("cost_rounded");
    const roundedSum = sum(rows.map((r) => (r[rounded] ? decimalToMicros(r[rounded] ?? "0") : 0n)));
    expect(roundedSum).toBe(decimalToMicros(totalRow[rounded] ?? "x"));
  });

  test("a bad month is a 400 from the API", async ({ request }) => {
    const res = await request.get("/api/costs?month=2026-13");
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("YYYY-MM");
    expect((await request.get("/api/costs/export.csv?month=nope")).status()).toBe(400);
  });
});
