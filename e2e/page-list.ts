import { expect, type APIRequestContext, type Page } from "@playwright/test";

// The signed-in pages the layout and accessibility specs walk, and a wait for each to settle
// (data loaded, lazy charts drawn) before anything is measured.

export const SIGNED_IN_PAGES = [
  "/",
  "/instance",
  "/alerts",
  "/recommendations",
  "/costs",
  "/costs/reconcile",
  "/my-gpus",
  "/compare",
  "/settings",
  "/settings/pricing",
  "/admin",
] as const;

export type SignedInPage = (typeof SIGNED_IN_PAGES)[number];

/** A host that is up, so its page has charts, processes and cost. */
export async function instancePath(request: APIRequestContext): Promise<string> {
  const res = await request.get("/api/instances?state=up&sort=gpus&dir=desc");
  expect(res.ok()).toBe(true);
  const { rows } = (await res.json()) as { rows: { id: string }[] };
  const first = rows[0];
  if (!first) throw new Error("the demo should have a host that is up");
  return `/instances/${first.id}`;
}

export async function resolvePath(request: APIRequestContext, p: SignedInPage): Promise<string> {
  return p === "/instance" ? instancePath(request) : p;
}

/** Opens a page and waits until its loading notes and chart placeholders are gone. */
export async function openSettled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator("main .loading")).toHaveCount(0);
  await expect(page.locator("main .chart-loading")).toHaveCount(0);
  await expect(page.locator('main .chart-empty[role="status"]')).toHaveCount(0);
  // fonts and the last layout pass
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}
