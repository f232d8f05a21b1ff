import { expect, test } from "@playwright/test";

// Measured cost per unit of work in the demo (issue 28), as finance sees it: an inference host's
// page shows its throughput and $ per million output tokens (the API's exact figure), its finished
// trial's report, and /compare shows measured figures beside the published ones.

test.use({ storageState: "test-results/.auth/finance.json" });

interface HostRow {
  hostname: string;
  instanceType: string;
  unit: string;
  status: string;
  perMicros: string | null;
}
interface Result {
  month: string;
  hosts: HostRow[];
}

async function unitCosts(
  request: import("@playwright/test").APIRequestContext,
  month?: string,
): Promise<Result> {
  const res = await request.get(`/api/work/unit-costs${month ? `?month=${month}` : ""}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Result;
}

function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
}

test("instance page and /compare show measured $ per million tokens", async ({ page }) => {
  const current = await unitCosts(page.request);
  const g5 = current.hosts.find(
    (h) => h.instanceType === "g5.xlarge" && h.unit === "output_tokens",
  );
  if (!g5) throw new Error("the demo's g5.xlarge hosts should count output tokens this month");

  // the instance page: throughput beside utilization, and the same figure as the API
  await page.goto(`/instances/${encodeURIComponent(g5.hostname)}`);
  const row = page
    .getByTestId("instance-work")
    .locator('[data-testid="work-row"][data-unit="output_tokens"]');
  await expect(row.getByTestId("work-rate")).toHaveText(/output tokens\/s/);
  const cost = row.getByTestId("work-cost");
  if (g5.status === "ok") {
    await expect(cost).toHaveAttribute("data-micros", g5.perMicros ?? "");
    await expect(cost).toHaveText(/^\$\d+\.\d{4} \$ per million output tokens$/);
  } else {
    // the first hour of a month: too little work yet, and the page says so rather than a number
    await expect(cost).toContainText("not enough data");
  }

  // the finished trial on the g6.xlarge host, with its report
  const g6 = current.hosts.find((h) => h.instanceType === "g6.xlarge");
  const trialHost =
    g6?.hostname ??
    (await unitCosts(page.request, previousMonth(current.month))).hosts.find(
      (h) => h.instanceType === "g6.xlarge",
    )?.hostname;
  if (!trialHost) throw new Error("the demo's g6.xlarge host should count work");
  await page.goto(`/instances/${encodeURIComponent(trialHost)}`);
  await expect(page.getByTestId("trial-report").first()).toHaveText(
    /^Qwen\/Qwen3-8B on g6\.xlarge: \$\d+\.\d\d per million output tokens vs \$\d+\.\d\d on \S+ \(measured 31 h vs \d+ h\)/,
  );

  // /compare: measured here (this month, or last month in a month's first hour) beside published
  const month = g5.status === "ok" ? current.month : previousMonth(current.month);
  await page.goto(month === current.month ? "/compare" : `/compare?month=${month}`);
  const table = page.getByTestId("compare-work");
  const measured = table.locator('[data-testid="compare-work-row"][data-kind="measured"]', {
    hasText: "g5.xlarge",
  });
  await expect(measured.filter({ hasText: "output tokens" }).first()).toContainText(
    month === current.month
      ? /measured here, \d+ hours, this month/
      : /measured here, \d+ hours, in /,
  );
  await expect(
    measured.filter({ hasText: "output tokens" }).first().getByTestId("compare-work-cost"),
  ).toHaveText(/^\$\d+\.\d{4} \$ per million output tokens$/);
  await expect(
    table
      .locator('[data-testid="compare-work-row"][data-kind="published"]', {
        hasText: "published, not measured on this type",
      })
      .first(),
  ).toBeVisible();
});
