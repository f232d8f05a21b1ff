import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { openSettled, resolvePath, SIGNED_IN_PAGES } from "./page-list.ts";

// axe-core on every page: no violation of impact "serious" or "critical". Signed-in pages are
// scanned as the demo admin (the config's default), sign-in and first-run setup signed out.

const BLOCKING = new Set(["serious", "critical"]);

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

function describeViolations(path: string, violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${path}: ${v.id} (${v.impact}) ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target.join(" >> ")}`).join("\n"),
    )
    .join("\n");
}

async function scan(page: Page, path: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const blocking = result.violations.filter((v) => BLOCKING.has(v.impact ?? ""));
  const rest = result.violations.filter((v) => !BLOCKING.has(v.impact ?? ""));
  // minor and moderate findings are printed too, so they are seen, but do not fail the page; so
  // are contrasts axe could not decide (text over a chart, say), for a person to check
  if (rest.length > 0) console.log(`axe, not blocking:\n${describeViolations(path, rest)}`);
  const undecided = result.incomplete.filter((v) => v.id === "color-contrast");
  if (undecided.length > 0) console.log(`axe, undecided:\n${describeViolations(path, undecided)}`);
  expect(blocking, `axe found:\n${describeViolations(path, blocking)}`).toEqual([]);
}

test.describe("accessibility, signed in", () => {
  for (const p of SIGNED_IN_PAGES) {
    test(`axe finds nothing serious on ${p}`, async ({ page, request }) => {
      const path = await resolvePath(request, p);
      await openSettled(page, path);
      await scan(page, path);
    });
  }

  // at phone width tables scroll inside their cards and the header folds: scanned again there
  for (const p of SIGNED_IN_PAGES) {
    test(`axe finds nothing serious on ${p} at 390 px`, async ({ page, request }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const path = await resolvePath(request, p);
      await openSettled(page, path);
      await scan(page, `${path} at 390 px`);
    });
  }

  test("axe finds nothing serious in the phone header with its menu open", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSettled(page, "/costs");
    const toggle = page.getByTestId("nav-toggle");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await scan(page, "/costs at 390 px, menu open");
  });
});

test.describe("accessibility, signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("axe finds nothing serious on /sign-in", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in to gpufleet" })).toBeVisible();
    await scan(page, "/sign-in");
  });

  test("axe finds nothing serious on /setup (the expired-link notice)", async ({ page }) => {
    await page.goto("/setup");
    await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
    await scan(page, "/setup");
  });
});
