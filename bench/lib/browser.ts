// Page-ready time in headless Chromium (Debian's): from navigation start until the GPU grid shows
// every GPU, read from the page's own clock (performance.now() is relative to navigation start).
// "Every GPU" is what the page's own headline counts (data-known): the simulator drops the odd
// GPU and brings it back, so waiting for the count seen at setup could wait for the next
// snapshot instead of measuring the page.
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
 * One cold load (fresh context, empty cache) of `url`, ready when the grid has a cell for every
 * GPU the page's headline counts, and at least 99 % of `cells`.
 */
export async function pageReady(
  browser: Browser,
  url: string,
  cells: number,
  cookie: string,
): Promise<PageLoad> {
  const context = await browser.newContext();
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
        const drawn = document.querySelectorAll('[data-testid="gpu-cell"]').length;
        const known = document
          .querySelector('[data-testid="stat-gpus"]')
          ?.getAttribute("data-known");
        return drawn >= n * 0.99 && String(drawn) === known ? performance.now() : false;
      },
      cells,
      { timeout: 120_000, polling: "raf" },
    );
    const readyMs = Number(await handle.jsonValue());
    const bytes = await Promise.all(sizes);
    return { readyMs, jsBytes: bytes.reduce((a, b) => a + b, 0), jsFiles: bytes.length };
  } finally {
    await context.close();
  }
}
