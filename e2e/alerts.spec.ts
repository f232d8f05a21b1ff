import { expect, test, type APIRequestContext } from "@playwright/test";

// Runs against the demo. The test makes its own alerts: a fresh idle rule limited to one of the
// demo's always-idle hosts, evaluated at once, so re-runs on the same database still start from a
// firing alert. The rule (and its alerts) is deleted afterwards.

// signed in as the demo admin (playwright.config.ts); acknowledgements carry that email
const USER = "admin@demo.gpufleet.test";

interface AlertRow {
  id: string;
  ruleId: string;
  state: string;
  hostname: string | null;
  details: { idleKind?: string };
}

async function idleRule(request: APIRequestContext, host: string): Promise<string> {
  const res = await request.post("/api/rules", {
    data: {
      name: `E2E idle ${Date.now()}`,
      kind: "idle",
      scopeKind: "host",
      scopeValue: host,
      params: { durationMinutes: 30 },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test.describe("alerts page", () => {
  let ruleId = "";
  test.afterEach(async ({ request }) => {
    if (ruleId) await request.delete(`/api/rules/${ruleId}`);
  });

  test("acknowledge an idle alert: state, who, and the event history", async ({
    page,
    request,
  }) => {
    // gpu-aws-usw2-010 is the demo's empty p3.2xlarge: idle all the time
    ruleId = await idleRule(request, "gpu-aws-usw2-010");
    await expect
      .poll(
        async () => {
          await request.post("/api/alerts/evaluate");
          const list = (await (await request.get("/api/alerts?kind=idle")).json()) as {
            alerts: AlertRow[];
          };
          return list.alerts.filter((a) => a.ruleId === ruleId && a.state === "firing").length;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    const list = (await (await request.get("/api/alerts?kind=idle")).json()) as {
      alerts: AlertRow[];
    };
    const alert = list.alerts.find((a) => a.ruleId === ruleId);
    if (!alert) throw new Error("no alert");
    expect(alert.details.idleKind).toBe("empty");

    await page.goto("/alerts?kind=idle");
    await expect(page).toHaveURL(/kind=idle/);
    const row = page.locator(`[data-testid="alert-row"][data-id="${alert.id}"]`);
    await expect(row).toHaveAttribute("data-state", "firing");
    await expect(row).toHaveAttribute("data-idle-kind", "empty");
    await expect(row).toContainText("gpu-aws-usw2-010");
    // only idle alerts are listed under this filter
    await expect(page.locator('[data-testid="alert-row"]:not([data-kind="idle"])')).toHaveCount(0);

    await row.getByTestId("alert-ack").click();
    await expect(row).toHaveAttribute("data-state", "acknowledged");
    await expect(row.getByTestId("alert-acked-by")).toContainText(USER);
    await expect(row.getByTestId("alert-ack")).toHaveCount(0);

    await row.getByTestId("alert-toggle").click();
    await expect(page).toHaveURL(new RegExp(`alert=${alert.id}`));
    const events = page.getByTestId("alert-events");
    await expect(events.locator('[data-to="acknowledged"]')).toContainText(`by ${USER}`);
    await expect(events.locator('[data-to="firing"]')).toHaveCount(1);

    // the API agrees
    const detail = (await (await request.get(`/api/alerts/${alert.id}`)).json()) as {
      state: string;
      acknowledgedBy: string;
    };
    expect(detail).toMatchObject({ state: "acknowledged", acknowledgedBy: USER });
  });

  test("snooze and resolve from the list; filters by state", async ({ page, request }) => {
    // gpu-aws-usw2-008 is the demo's held-but-idle g4dn.xlarge
    ruleId = await idleRule(request, "gpu-aws-usw2-008");
    await expect
      .poll(
        async () => {
          await request.post("/api/alerts/evaluate");
          const list = (await (await request.get("/api/alerts?kind=idle")).json()) as {
            alerts: AlertRow[];
          };
          return list.alerts.filter((a) => a.ruleId === ruleId).length;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    const list = (await (await request.get("/api/alerts?kind=idle")).json()) as {
      alerts: AlertRow[];
    };
    const alert = list.alerts.find((a) => a.ruleId === ruleId);
    if (!alert) throw new Error("no alert");

    await page.goto("/alerts");
    const row = page.locator(`[data-testid="alert-row"][data-id="${alert.id}"]`);
    await expect(row).toHaveAttribute("data-idle-kind", "held");
    // "Snooze ▾" opens the durations; picking one snoozes
    await row.getByTestId("alert-snooze").click();
    await row.getByTestId("alert-snooze-60").click();
    await expect(row).toHaveAttribute("data-snoozed", "yes");
    await expect(row.getByTestId("alert-snoozed")).toBeVisible();

    // the radio follows the URL, so click the label and wait for the URL
    await page.getByTestId("filter-state").getByText("Snoozed", { exact: true }).click();
    await expect(page).toHaveURL(/state=snoozed/);
    await expect(row).toBeVisible();

    await row.getByTestId("alert-resolve").click();
    await expect(row).toHaveCount(0); // no longer open, so not under "snoozed"
    await page.getByTestId("filter-state").getByText("Resolved", { exact: true }).click();
    await expect(page).toHaveURL(/state=resolved/);
    await expect(row).toHaveAttribute("data-state", "resolved");
  });
});
