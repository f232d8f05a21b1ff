import { expect, test, type Locator, type Page } from "@playwright/test";
import { instancePath, openSettled, resolvePath, SIGNED_IN_PAGES } from "./page-list.ts";

// Layout checks measured in the browser: the pricing catalogue's cells keep to their own boxes at
// 1440 px, the cost trend's legend text is readable (WCAG contrast), and at phone width (390 px) no
// page scrolls sideways and the header folds into a menu button. Screenshots of /settings, /alerts
// and /costs at both widths go to test-results/layout-*.png for a person to look at.

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/layout-${name}.png` });
  await page.screenshot({ path: `test-results/layout-${name}-full.png`, fullPage: true });
}

type LegendContrast = {
  text: string;
  color: string;
  background: string;
  ratio: number;
  swatch: string | null;
};

/** Each legend item's words: their rendered colour, background and WCAG contrast ratio. */
async function legendContrast(items: Locator): Promise<LegendContrast[]> {
  return items.evaluateAll((lis) => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) throw new Error(`unparsed colour ${c}`);
      const [r = 0, g = 0, b = 0, a = 1] = (m[1] ?? "")
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r, g, b, a];
    };
    // alpha-composite `top` over `under` (both as rendered), giving an opaque colour
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3];
      return [
        top[0] * a + under[0] * (1 - a),
        top[1] * a + under[1] * (1 - a),
        top[2] * a + under[2] * (1 - a),
        1,
      ];
    };
    const background = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] === 1) break;
      }
      return layers.reduceRight<Rgba>((under, top) => over(top, under), [255, 255, 255, 1]);
    };
    // WCAG 2 relative luminance and contrast ratio
    const channel = (v: number) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = ([r, g, b]: Rgba) =>
      0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const ratio = (a: Rgba, b: Rgba) => {
      const hi = Math.max(luminance(a), luminance(b));
      const lo = Math.min(luminance(a), luminance(b));
      return (hi + 0.05) / (lo + 0.05);
    };
    return lis.map((li) => {
      // the element that holds the legend's words
      const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
      let textNode: Node | null = walker.nextNode();
      while (textNode && !textNode.textContent?.trim()) textNode = walker.nextNode();
      const holder = textNode?.parentElement ?? li;
      const bg = background(holder);
      const fg = over(parse(getComputedStyle(holder).color), bg);
      const swatch = li.querySelector(".recharts-legend-icon");
      return {
        text: textNode?.textContent?.trim() ?? "",
        color: getComputedStyle(holder).color,
        background: `rgb(${bg.slice(0, 3).join(", ")})`,
        ratio: Math.round(ratio(fg, bg) * 100) / 100,
        swatch: swatch?.getAttribute("fill") ?? null,
      };
    });
  });
}

test.describe("pricing catalogue at 1440 px", () => {
  test.use({ viewport: DESKTOP });

  test("no cell, and no text inside a cell, overlaps another cell", async ({ page }) => {
    await openSettled(page, "/settings/pricing");
    const table = page.getByTestId("pricing-table");
    await expect(table.getByTestId("pricing-row").first()).toBeVisible();
    // sources and notes open under their row on demand: open a few, the overlap check covers them
    for (const more of (await table.getByTestId("price-more").all()).slice(0, 4))
      await more.click();
    await expect(table.getByTestId("pricing-more")).toHaveCount(4);
    const problems = await table.evaluate((t) => {
      type Box = { left: number; right: number; top: number; bottom: number };
      const slack = 0.5;
      const box = (r: DOMRect): Box => ({
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
      });
      const overlaps = (a: Box, b: Box) =>
        a.left < b.right - slack &&
        b.left < a.right - slack &&
        a.top < b.bottom - slack &&
        b.top < a.bottom - slack;
      const inside = (inner: Box, outer: Box) =>
        inner.left >= outer.left - slack &&
        inner.right <= outer.right + slack &&
        inner.top >= outer.top - slack &&
        inner.bottom <= outer.bottom + slack;
      const out: string[] = [];
      const rows = Array.from(t.querySelectorAll<HTMLTableRowElement>("tbody tr"));
      rows.forEach((row, ri) => {
        const cells = Array.from(row.cells);
        const cellBoxes = cells.map((c) => box(c.getBoundingClientRect()));
        // the text and elements inside each cell, as laid out (overflowing text included)
        const contentBoxes = cells.map((c) => {
          const range = document.createRange();
          range.selectNodeContents(c);
          const parts = [
            ...Array.from(range.getClientRects()),
            ...Array.from(c.querySelectorAll("*")).map((e) => e.getBoundingClientRect()),
          ].filter((r) => r.width > 0 && r.height > 0);
          return parts.map(box);
        });
        cellBoxes.forEach((cellBox, i) => {
          for (const part of contentBoxes[i] ?? []) {
            if (!inside(part, cellBox))
              out.push(`row ${ri} cell ${i}: content ${JSON.stringify(part)} leaves its cell`);
          }
          for (let j = i + 1; j < cells.length; j += 1) {
            const other = cellBoxes[j];
            if (other && overlaps(cellBox, other))
              out.push(`row ${ri}: cells ${i} and ${j} overlap`);
            for (const a of contentBoxes[i] ?? [])
              for (const b of contentBoxes[j] ?? [])
                if (overlaps(a, b)) out.push(`row ${ri}: text of cells ${i} and ${j} overlaps`);
          }
        });
      });
      return { rows: rows.length, problems: out };
    });
    console.log(`pricing table: ${problems.rows} rows, ${problems.problems.length} overlaps`);
    expect(problems.rows).toBeGreaterThan(0);
    expect(problems.problems.slice(0, 20)).toEqual([]);

    // the shipped sources carry URLs: each shows as a link to its host, the full URL in href/title
    const links = table.getByTestId("pricing-source-link");
    await expect(links.first()).toBeVisible();
    for (const link of await links.all()) {
      const href = (await link.getAttribute("href")) ?? "";
      expect(href).toMatch(/^https?:\/\//);
      expect(await link.getAttribute("title")).toBe(href);
      expect((await link.textContent())?.trim()).toBe(new URL(href).host);
    }
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/layout-settings-pricing-1440.png" });
  });
});

test.describe("cost trend legend", () => {
  test.use({ viewport: DESKTOP });

  test("legend text has contrast ≥ 4.5:1 on its background; empty months say so", async ({
    page,
    request,
  }) => {
    await openSettled(page, "/costs");
    const chart = page.getByTestId("chart-cost-trend");
    await expect(chart).toBeVisible();
    const items = chart.locator(".recharts-legend-item");
    await expect(items).toHaveCount(2);

    const measured = await legendContrast(items);
    console.log(`cost trend legend: ${JSON.stringify(measured)}`);
    for (const m of measured)
      expect(m.ratio, `${m.text} on ${m.background}`).toBeGreaterThanOrEqual(4.5);
    // the swatches keep the bars' colours
    expect(measured.map((m) => m.swatch).sort()).toEqual(["#355f8d", "#fde725"]);

    // months with nothing in the ledger are marked as such, not left as bare axis slots
    const res = await request.get("/api/costs");
    expect(res.ok()).toBe(true);
    const { trend } = (await res.json()) as { trend: { month: string; totalMicros: string }[] };
    const empty = trend.filter((t) => t.totalMicros === "0").map((t) => t.month);
    await expect(chart.getByTestId("trend-no-data")).toHaveCount(empty.length);
    if (empty.length > 0) await expect(page.getByTestId("trend-note")).toBeVisible();
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/layout-costs-trend-1440.png" });
  });
});

test.describe("per-GPU chart legends", () => {
  test.use({ viewport: DESKTOP });

  test("legend text has contrast ≥ 4.5:1 whatever the line colour", async ({ page, request }) => {
    await openSettled(page, await instancePath(request));
    const items = page.getByTestId("gpu-charts").locator(".recharts-legend-item");
    await expect(items.first()).toBeVisible();
    const measured = await legendContrast(items);
    console.log(
      `per-GPU legends: ${measured.length} items, lowest ratio ${Math.min(...measured.map((m) => m.ratio))}`,
    );
    for (const m of measured)
      expect(m.ratio, `${m.text} (${m.color}) on ${m.background}`).toBeGreaterThanOrEqual(4.5);
  });
});

test.describe("screenshots at 1440 px", () => {
  test.use({ viewport: DESKTOP });
  for (const p of ["/settings", "/settings/pricing", "/compare", "/alerts", "/costs"]) {
    test(`screenshot ${p}`, async ({ page }) => {
      await openSettled(page, p);
      await shoot(page, `${p.slice(1).replace(/\//g, "-")}-1440`);
    });
  }
});

test.describe("phones at 390 px", () => {
  test.use({ viewport: PHONE });

  for (const p of SIGNED_IN_PAGES) {
    test(`${p} does not scroll sideways`, async ({ page, request }) => {
      const path = await resolvePath(request, p);
      await openSettled(page, path);
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        // anything sticking out past the right edge, to say what to fix
        wide: Array.from(document.querySelectorAll("body *"))
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
          .filter((e) => !e.closest(".table-wrap, .scroll-x"))
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      }));
      console.log(`${path} at 390 px: scrollWidth ${widths.scroll}`);
      expect(widths.scroll, `wider than the screen: ${widths.wide.join(", ")}`).toBeLessThanOrEqual(
        PHONE.width,
      );
      // charts fit their panel
      for (const chart of await page.locator("main .chart").all()) {
        const box = await chart.boundingBox();
        if (box) expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      const name = p === "/" ? "fleet" : p.slice(1).replace(/\//g, "-");
      await shoot(page, `${name}-390`);
      // a closer look at the parts that were cut or overlapping before
      const closer: Record<string, string> = {
        "/settings/pricing": '[data-testid="pricing-panel"]',
        "/costs": '[aria-labelledby="trend-title"]',
        "/": '[aria-labelledby="util-title"]',
        "/alerts": "main .table-wrap",
      };
      const target = closer[p];
      if (target && (await page.locator(target).count()) > 0) {
        await page
          .locator(target)
          .first()
          .evaluate((e) => e.scrollIntoView({ block: "start" }));
        await page.screenshot({ path: `test-results/layout-${name}-390-detail.png` });
      }
    });
  }

  test("the header's menu button opens and closes the navigation", async ({ page }) => {
    await openSettled(page, "/");
    const toggle = page.getByTestId("nav-toggle");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    const controls = await toggle.getAttribute("aria-controls");
    expect(controls).toBeTruthy();
    await expect(page.locator(`#${controls}`)).toBeHidden();
    await expect(nav.getByRole("link", { name: "Costs" })).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(page.locator(`#${controls}`)).toBeVisible();
    const costs = nav.getByRole("link", { name: "Costs" });
    await expect(costs).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await page.screenshot({ path: "test-results/layout-menu-open-390.png" });

    // a link goes there and the menu folds away again
    await costs.click();
    await expect(page).toHaveURL(/\/costs$/);
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(costs).toBeHidden();

    // Escape closes it too, and gives focus back to the button
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
  });
});
