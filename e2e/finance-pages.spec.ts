import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { openSettled } from "./page-list.ts";

// Issue 26, finance pages people look at: /compare leads with a chart per GPU model on a
// $/GPU-hour axis (said in words, its tables on demand, $/GPU-hour first); /costs says the prices
// behind its figures in one line that opens the lists, below the breakdowns; the pricing
// catalogue has a page of its own with filters and compact rows whose source and note open on
// demand, and fits a phone's width.

test.use({ storageState: "test-results/.auth/finance.json" });

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function axeClean(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const blocking = result.violations.filter((v) =>
    ["serious", "critical"].includes(v.impact ?? ""),
  );
  expect(
    blocking.map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll).toBeLessThanOrEqual(width);
}

test.describe("at 1440 px", () => {
  test.use({ viewport: DESKTOP });

  test("compare leads with a $/GPU-hour chart per GPU model, the tables on demand", async ({
    page,
  }) => {
    await openSettled(page, "/compare");
    // the charts come first, before the re-priced month and the tables
    const sections = await page
      .locator("main section.panel")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
    expect(sections.slice(0, 3)).toEqual(["offers-charts", "reprice", "offers"]);
    const legend = page.getByTestId("offers-legend");
    await expect(legend).toContainText("on-demand");
    await expect(legend).toContainText("spot");

    const card = page.locator('[data-testid="offers-chart-card"][data-model="H100-80GB"]');
    const chart = card.getByTestId("offers-chart");
    await expect(chart).toHaveAttribute("role", "img");
    await expect(chart).toHaveAttribute("aria-label", /offers per GPU-hour\. Cheapest on-demand: /);
    // one mark per H100 offer
    const offers = page.locator('[data-testid="offer-model"][data-model="H100-80GB"]');
    const offerCount = await offers.getByTestId("offer-row").count();
    expect(offerCount).toBeGreaterThan(1);
    await expect(chart.locator(".recharts-scatter-symbol")).toHaveCount(offerCount);
    // the demo runs H100s, so the fleet's effective $/GPU-hour is drawn beside the offers
    const actual = await chart.getAttribute("data-actual-micros");
    expect(BigInt(actual ?? "0")).toBeGreaterThan(0n);
    await expect(chart.locator(".recharts-reference-line")).toHaveCount(1);
    await expect(card.getByTestId("offers-chart-summary")).toContainText(
      /In the month the fleet paid \$\d+\.\d{2}\/GPU-hour/,
    );

    // the table is closed until asked for; the chart's link opens it; $/GPU-hour comes first
    await expect(offers.getByTestId("offer-row").first()).toBeHidden();
    await card.getByRole("link", { name: /offers in a table/ }).click();
    await expect(offers).toHaveAttribute("open", "");
    await expect(offers.getByTestId("offer-row").first()).toBeVisible();
    await expect(offers.locator("thead th").first()).toHaveText("$/GPU-hour");
    await expect(offers.locator("thead th").nth(6)).toHaveText("$/instance-hour");
    await expect(page.getByTestId("reprice").locator("thead th").nth(2)).toHaveText("$/GPU-hour");
    await axeClean(page, "/compare");
  });

  test("costs: the prices behind the figures are one line under the breakdowns", async ({
    page,
  }) => {
    await openSettled(page, "/costs");
    const notes = page.getByTestId("price-notes");
    await expect(notes.getByTestId("price-notes-line")).toHaveText(
      /^Priced from \d+ catalogue rows: \d+ stale/,
    );
    const breakdowns = await page.locator(".breakdowns").boundingBox();
    const box = await notes.boundingBox();
    expect(breakdowns && box && box.y > breakdowns.y + breakdowns.height).toBe(true);
    // one line tall, the lists closed
    expect(box?.height ?? 999).toBeLessThan(80);
    await expect(notes.getByTestId("stale-price").first()).toBeHidden();
    // keyboard: the summary takes focus and Enter opens the lists
    const summary = notes.getByTestId("price-notes-summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(notes.getByTestId("price-notes-details")).toHaveAttribute("open", "");
    await expect(summary).toContainText("hide");
    await expect(notes.getByTestId("stale-price").first()).toBeVisible();
    await axeClean(page, "/costs with the price notes open");
  });

  test("the pricing catalogue: its own page, filters, compact rows, source on demand", async ({
    page,
  }) => {
    await openSettled(page, "/settings");
    await page.getByTestId("settings-tab-pricing").click();
    await expect(page).toHaveURL(/\/settings\/pricing$/);
    await expect(page.getByRole("heading", { name: "Pricing catalogue", level: 1 })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }),
    ).toHaveAttribute("aria-current", "page");
    const table = page.getByTestId("pricing-table");
    const rows = table.getByTestId("pricing-row");
    await expect(rows.first()).toBeVisible();
    const total = await rows.count();
    expect(total).toBeGreaterThan(20);
    await expect(page.getByTestId("pricing-count")).toHaveText(`${total} rows`);

    // compact: once the rates and prices are in, no row is taller than two lines of text
    await expect
      .poll(async () =>
        Math.max(
          ...(await rows.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))),
        ),
      )
      .toBeLessThan(60);

    // filters: provider, then GPU model, then stale only, then clear
    await page.getByTestId("pricing-filter-provider").selectOption("aws");
    const awsOnly = await rows.evaluateAll((els) =>
      els.map((e) => e.getAttribute("data-provider")),
    );
    expect(awsOnly.length).toBeGreaterThan(0);
    expect(new Set(awsOnly)).toEqual(new Set(["aws"]));
    await expect(page.getByTestId("pricing-count")).toHaveText(
      `${awsOnly.length} of ${total} rows`,
    );
    await page.getByTestId("pricing-filter-type").fill("p5.48");
    await expect(rows.first()).toHaveAttribute("data-type", "p5.48xlarge");
    expect(
      new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-type")))),
    ).toEqual(new Set(["p5.48xlarge"]));
    await page.getByTestId("pricing-filter-clear").click();
    await expect(rows).toHaveCount(total);
    await page.getByTestId("pricing-filter-region").selectOption("*");
    expect(
      new Set(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-region")))),
    ).toEqual(new Set(["*"]));
    await page.getByTestId("pricing-filter-clear").click();
    await page.getByTestId("pricing-filter-stale").check();
    const stale = await rows.count();
    expect(stale).toBeGreaterThan(0);
    expect(stale).toBeLessThan(total);
    await expect(rows.getByTestId("price-stale")).toHaveCount(stale);
    await page.getByTestId("pricing-filter-clear").click();

    // a row's source and note open under it, by keyboard too
    const first = rows.first();
    const more = first.getByTestId("price-more");
    await expect(table.getByTestId("pricing-more")).toHaveCount(0);
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await more.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("aria-expanded", "true");
    const opened = table.getByTestId("pricing-more");
    await expect(opened).toHaveCount(1);
    await expect(opened).toHaveAttribute("id", (await more.getAttribute("aria-controls")) ?? "x");
    await expect(opened).toContainText("Source");
    await axeClean(page, "/settings/pricing with a source open");
    await more.click();
    await expect(table.getByTestId("pricing-more")).toHaveCount(0);
    await noSidewaysScroll(page, DESKTOP.width);
  });
});

test.describe("at 390 px", () => {
  test.use({ viewport: PHONE });

  for (const path of ["/compare", "/costs", "/settings/pricing"]) {
    test(`${path} fits the width and axe finds nothing serious`, async ({ page }) => {
      await openSettled(page, path);
      await noSidewaysScroll(page, PHONE.width);
      for (const chart of await page.locator("main .chart").all()) {
        const box = await chart.boundingBox();
        if (box) expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      await axeClean(page, `${path} at 390 px`);
    });
  }
});
