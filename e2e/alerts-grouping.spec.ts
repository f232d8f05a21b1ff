import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// Runs against the demo, signed in as the demo admin (playwright.config.ts). The demo's idle GPUs
// sit several to a host: the alerts one rule raised on one host are one row with a count, which
// expands into each GPU's alert; two such groups selected and acknowledged at once (through
// POST /api/alerts/bulk) acknowledge every alert in them, and no row is taller than 48 px.

const USER = "admin@demo.gpufleet.test";
const MAX_ROW_PX = 48;

interface Alert {
  id: string;
  ruleId: string;
  kind: string;
  state: string;
  hostId: string | null;
  hostname: string | null;
  acknowledgedBy: string | null;
}
interface AlertList {
  alerts: Alert[];
  counts: { firing: number; acknowledged: number };
}

async function openAlerts(request: APIRequestContext): Promise<AlertList> {
  const res = await request.get("/api/alerts");
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as AlertList;
}

/** The demo's idle groups (rule × host, two alerts or more), all of whose alerts are firing. */
function firingIdleGroups(list: AlertList): { key: string; hostname: string; ids: string[] }[] {
  const groups = new Map<string, Alert[]>();
  for (const a of list.alerts) {
    if (a.kind !== "idle" || a.hostId === null) continue;
    const key = `${a.ruleId}:${a.hostId}`;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  return [...groups]
    .filter(([, as]) => as.length >= 2 && as.every((a) => a.state === "firing"))
    .map(([key, as]) => ({ key, hostname: as[0]?.hostname ?? "", ids: as.map((a) => a.id) }))
    .sort((a, b) => b.ids.length - a.ids.length);
}

async function rowHeights(page: Page): Promise<number[]> {
  return page
    .locator('[data-testid="alert-row"], [data-testid="alert-group"]')
    .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
}

test.describe("alerts page: groups, one-line rows and bulk actions", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("idle alerts on one host are one row; two groups acknowledged at once", async ({
    page,
    request,
  }) => {
    // the demo's idle alerts fire on the first evaluation; evaluate now rather than wait a tick
    let groups: ReturnType<typeof firingIdleGroups> = [];
    await expect
      .poll(
        async () => {
          await request.post("/api/alerts/evaluate");
          groups = firingIdleGroups(await openAlerts(request));
          return groups.length;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const [big, second] = groups as [(typeof groups)[0], (typeof groups)[0]];

    await page.goto("/alerts");
    const group = page.locator(`[data-testid="alert-group"][data-key="${big.key}"]`);
    await expect(group).toHaveAttribute("data-count", String(big.ids.length));
    await expect(group.getByTestId("alert-group-count")).toHaveText(String(big.ids.length));
    await expect(group).toContainText(big.hostname);
    await expect(group).toHaveAttribute("data-state", "firing");
    // its alerts are not listed one by one until it is opened
    const members = page.locator(`[data-testid="alert-row"][data-group="${big.key}"]`);
    await expect(members).toHaveCount(0);
    for (const id of big.ids) {
      await expect(page.locator(`[data-testid="alert-row"][data-id="${id}"]`)).toHaveCount(0);
    }

    await group.getByTestId("alert-group-toggle").click();
    await expect(group).toHaveAttribute("data-expanded", "yes");
    await expect(members).toHaveCount(big.ids.length);
    expect((await members.evaluateAll((rs) => rs.map((r) => r.dataset.id ?? ""))).sort()).toEqual(
      [...big.ids].sort(),
    );
    // each GPU's alert has its own actions
    await expect(members.first().getByTestId("alert-ack")).toBeVisible();
    await expect(members.first().getByTestId("alert-snooze")).toBeVisible();
    await expect(members.first().getByTestId("alert-resolve")).toBeVisible();

    // "Snooze ▾" opens its durations just under the button; Escape closes them
    const snooze = group.getByTestId("alert-group-snooze");
    await snooze.click();
    const menu = group.getByTestId("alert-group-snooze-menu");
    await expect(menu).toBeVisible();
    const [button, box] = [await snooze.boundingBox(), await menu.boundingBox()];
    expect(button && box).toBeTruthy();
    if (button && box) {
      expect(Math.abs(box.y - (button.y + button.height))).toBeLessThanOrEqual(6);
      expect(box.x + box.width).toBeLessThanOrEqual(1440);
    }
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();

    const heights = await rowHeights(page);
    console.log(`alert row heights at 1440 px: ${heights.map((h) => h.toFixed(1)).join(", ")}`);
    expect(heights.length).toBeGreaterThan(big.ids.length);
    for (const h of heights) expect(h).toBeLessThanOrEqual(MAX_ROW_PX);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path: "test-results/alerts-1440.png" });

    // select-all selects every alert listed (each group whole), and clears again
    const all = page.getByTestId("alert-select-all");
    await all.check();
    for (const box of await page.getByTestId("alert-group-select").all()) {
      await expect(box).toBeChecked();
    }
    const listed = await page
      .locator('[data-testid="alert-group"]')
      .evaluateAll((rs) => rs.reduce((n, r) => n + Number(r.dataset.count), 0));
    const singles = await page.locator('[data-testid="alert-row"]:not([data-group])').count();
    await expect(page.getByTestId("alert-bulk")).toHaveAttribute(
      "data-selected",
      String(listed + singles),
    );
    await all.uncheck();
    await expect(page.getByTestId("alert-bulk")).toHaveAttribute("data-selected", "0");

    // two groups selected: the group checkbox selects each of its alerts
    await group.getByTestId("alert-group-select").check();
    const other = page.locator(`[data-testid="alert-group"][data-key="${second.key}"]`);
    await other.getByTestId("alert-group-select").check();
    const selected = big.ids.length + second.ids.length;
    await expect(page.getByTestId("bulk-count")).toHaveText(`${selected} selected`);
    for (const m of await members.all()) await expect(m.getByTestId("alert-select")).toBeChecked();

    const before = (await openAlerts(request)).counts.acknowledged;
    const bulk = page.waitForResponse(
      (r) => r.url().endsWith("/api/alerts/bulk") && r.request().method() === "POST",
    );
    await page.getByTestId("bulk-ack").click();
    const answer = (await (await bulk).json()) as { succeeded: number; failed: number };
    expect(answer).toMatchObject({ succeeded: selected, failed: 0 });
    await expect(page.getByTestId("bulk-result")).toHaveText(`Acknowledged ${selected} alerts.`);
    await expect(page.getByTestId("alert-bulk")).toHaveAttribute("data-selected", "0");

    // the API agrees: exactly the selected alerts became acknowledged, by the signed-in user
    const after = await openAlerts(request);
    expect(after.counts.acknowledged).toBe(before + selected);
    for (const id of [...big.ids, ...second.ids]) {
      const a = after.alerts.find((x) => x.id === id);
      expect(a, id).toMatchObject({ state: "acknowledged", acknowledgedBy: USER });
    }
    await expect(group).toHaveAttribute("data-state", "acknowledged");
    await expect(other).toHaveAttribute("data-state", "acknowledged");
    await expect(members.first()).toHaveAttribute("data-state", "acknowledged");
    await expect(members.first().getByTestId("alert-acked-by")).toContainText(USER);

    for (const h of await rowHeights(page)) expect(h).toBeLessThanOrEqual(MAX_ROW_PX);
    await page.screenshot({ path: "test-results/alerts-1440-acknowledged.png" });
  });
});
