import { expect, test } from "@playwright/test";

// Issue 24 in the demo: busy GPUs name their holders on the instance page, and the costs page's
// "who holds idle GPUs" table adds up to the month's total (exactly, and in displayed cents).

interface Row {
  id: string;
  hostname: string;
  gpus: number;
}

test.describe("GPU holders", () => {
  test("the instance page names the holder of each busy GPU and of each process", async ({
    page,
    request,
  }) => {
    const res = await request.get("/api/instances?state=up&sort=gpus&dir=desc");
    expect(res.ok()).toBe(true);
    const { rows } = (await res.json()) as { rows: Row[] };
    // the simulator's shared hosts are held by alice, bob and carol; find one with processes
    let found: Row | null = null;
    for (const r of rows) {
      const detail = (await (await request.get(`/api/instances/${r.id}`)).json()) as {
        processes: { holder: string | null }[];
      };
      if (detail.processes.some((p) => /alice|bob|carol/.test(p.holder ?? ""))) {
        found = r;
        break;
      }
    }
    if (!found) throw new Error("the demo should have a shared host with held GPUs");
    await page.goto(`/instances/${encodeURIComponent(found.hostname)}`);
    const holders = page.getByTestId("gpu-holders");
    await expect(holders.filter({ hasText: /alice|bob|carol/ }).first()).toBeVisible();
    await expect(
      page
        .getByTestId("process-holder")
        .filter({ hasText: /alice|bob|carol/ })
        .first(),
    ).toBeVisible();
  });

  test("spend by holder adds up to the month's total", async ({ page }) => {
    await page.goto("/costs");
    const total = page.getByTestId("cost-total");
    await expect(total).toHaveAttribute("data-micros", /^\d+$/);
    const monthMicros = BigInt((await total.getAttribute("data-micros")) ?? "x");
    const table = page.getByTestId("holder-table");
    await expect(table.getByTestId("holder-row").last()).toHaveAttribute("data-held", "no");
    const tableTotal = table.getByTestId("holder-total-cost");
    expect(BigInt((await tableTotal.getAttribute("data-micros")) ?? "x")).toBe(monthMicros);
    const cells = table.getByTestId("holder-cost");
    const sum = async (attr: string) =>
      (await cells.evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? "0"), attr)).reduce(
        (s, v) => s + BigInt(v),
        0n,
      );
    expect(await sum("data-micros")).toBe(monthMicros);
    expect(await sum("data-display-micros")).toBe(
      BigInt((await tableTotal.getAttribute("data-display-micros")) ?? "x"),
    );
    // sorting keeps every row and the "not held" row last
    const n = await cells.count();
    await table.getByTestId("holder-sort-holder").click();
    await expect(cells).toHaveCount(n);
    await expect(table.getByTestId("holder-row").last()).toHaveAttribute("data-held", "no");
  });
});

test.describe("my GPUs", () => {
  // the demo maps the simulator's user alice to the demo viewer (lib/demo/demo-logins.ts)
  test.use({ storageState: "test-results/.auth/viewer.json" });

  test("a mapped person sees the GPUs they hold now and what they cost", async ({ page }) => {
    await page.goto("/my-gpus");
    await expect(page.getByRole("link", { name: "My GPUs" })).toBeVisible();
    await expect(page.getByTestId("my-gpus-as")).toContainText("user alice");
    const rows = page.getByTestId("my-gpu-row");
    await expect(rows.first()).toBeVisible();
    await expect(rows.first()).toContainText("alice");
    await expect(page.getByTestId("my-gpus-table")).not.toContainText("bob ·");
  });
});
