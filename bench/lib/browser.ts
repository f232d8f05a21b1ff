// Page-ready time in headless Chromium (Debian's): from navigation start until the fleet page has
// drawn what a person needs first: the headline counting the fleet, the groups adding up to it,
// and the problem list; read from the page's own clock (performance.now() is relative to
// navigation start). "The fleet" is what the page's own headline counts (data-known): the
// simulator drops the odd GPU and brings it back, so waiting for the count seen at setup could
// wait for the next snapshot instead of measuring the page.
import { chromium, type Browser } from "@playwright/test";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

export interface PageLoad {
  readyMs: number;
  /** script bytes as transferred (compressed when the server compressed them) */
  jsBytes: number;
  jsFiles: number;
}

/**
 * One cold load (fresh context, empty cache) of `url`, ready when the headline counts at least
 * 99 % of `gpus`, the groups drawn add up to its count, and the problem list is drawn.
 * `apiFrom`: another origin that answers the fleet summary, its GPU pages and the instance list
 * (the synthetic fleet), in place of the app's.
 */
export async function pageReady(
  browser: Browser,
  url: string,
  gpus: number,
  cookie: string,
  apiFrom?: string,
): Promise<PageLoad> {
  const context = await browser.newContext();
  if (apiFrom) {
    await context.route(/\/api\/(fleet|fleet\/gpus|instances)(\?.*)?$/, (route) => {
      const u = new URL(route.request().url());
      return route.continue({ url: `${apiFrom}${u.pathname}${u.search}` });
    });
  }
  // signed in: the session cookie, as the sign-in page would have set it
  await context.addCookies(
    cookie.split("; ").map((c) => {
      const eq = c.indexOf("=");
      return { name: c.slice(0, eq), value: c.slice(eq + 1), url };
    }),
  );
  const page = await context.newPage();
  const sizes: Array<Promise<number>> = [];
  page.on("requestfinished", (req) => {
    if (req.resourceType() === "script")
      sizes.push(
        req.sizes().then(
          (s) => s.responseBodySize,
          () => 0,
        ),
      );
  });
  try {
    await page.goto(url, { waitUntil: "commit", timeout: 60_000 });
    const handle = await page.waitForFunction(
      (n) => {
        const known = Number(
          document.querySelector('[data-testid="stat-gpus"]')?.getAttribute("data-known") ?? "0",
        );
        let grouped = 0;
        for (const g of document.querySelectorAll('[data-testid="fleet-group"]'))
          grouped += Number(g.getAttribute("data-gpus"));
        const problems = document.querySelector(
          '[data-testid="attention-table"], [data-testid="attention-none"]',
        );
        return known >= n * 0.99 && grouped === known && problems !== null
          ? performance.now()
          : false;
      },
      gpus,
      { timeout: 120_000, polling: "raf" },
    );
    const readyMs = Number(await handle.jsonValue());
    const bytes = await Promise.all(sizes);
    return { readyMs, jsBytes: bytes.reduce((a, b) => a + b, 0), jsFiles: bytes.length };
  } finally {
    await context.close();
  }
}
