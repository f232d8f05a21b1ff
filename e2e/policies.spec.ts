import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";

// Runs against the demo (issue 25): an admin adds an idle-release policy on the settings page
// (it starts in dry run), switches it to active, the policy's warning reaches a local webhook
// receiver with its keep links, and following the 8 h link without signing in keeps the host.

const HOST = "gpu-aws-usw2-008"; // the demo's held-idle g4dn (project recsys), idle all along
let receiver: Server;
let hookUrl = "";
const warnings: { host: { hostname: string }; keepLinks: { hours: number; url: string }[] }[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => {
      try {
        const body = JSON.parse(s) as { type?: string } & (typeof warnings)[number];
        if (body.type === "gpufleet.policy.warning") warnings.push(body);
      } catch {
        /* alert notifications and the like: not ours */
      }
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
test.afterAll(() => receiver.close());

test("dry run → active, then a keep link from the warning keeps the host", async ({
  page,
  request,
  browser,
}) => {
  const channel = await request.post("/api/channels", {
    data: { name: "E2E policy warnings", kind: "webhook", url: hookUrl },
  });
  expect(channel.status()).toBe(201);
  const channelId = ((await channel.json()) as { id: string }).id;
  const name = `E2E idle recsys ${Date.now()}`;
  try {
    await page.goto("/settings");
    await page.getByTestId("policy-new").click();
    const form = page.getByTestId("policy-form");
    await form.getByTestId("policy-name").fill(name);
    await form.getByTestId("policy-idleHours").fill("1");
    await form.getByTestId("policy-scopeKind").selectOption("project");
    await form.getByTestId("policy-scopeValue").fill("recsys");
    await form.getByTestId("policy-save").click();
    await expect(form).toHaveCount(0);
    const row = page.locator(`[data-testid="policy-row"][data-name="${name}"]`);
    await expect(row).toHaveAttribute("data-mode", "dry_run");
    // the dry run lists what it would do, with the $ it would save
    const planned = page.getByTestId("policy-action-row").filter({ hasText: HOST });
    await expect(planned.filter({ hasText: name }).first()).toContainText("would stop", {
      timeout: 45_000,
    });

    await row.getByTestId("policy-mode").click();
    await expect(row).toHaveAttribute("data-mode", "active");

    await expect
      .poll(() => warnings.filter((w) => w.host.hostname === HOST).length, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    const warning = warnings.find((w) => w.host.hostname === HOST);
    const link = warning?.keepLinks.find((l) => l.hours === 8)?.url ?? "";
    expect(link).toMatch(/\/keep\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

    // a fresh browser, not signed in
    const anon = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const keep = await anon.newPage();
    await keep.goto(new URL(link).pathname);
    await keep.getByTestId("keep-button").click();
    await expect(keep.getByTestId("keep-result")).toContainText(`Kept ${HOST} until`);
    // single use
    await keep.reload();
    await keep.getByTestId("keep-button").click();
    await expect(keep.getByTestId("keep-result")).toContainText("not valid");
    await anon.close();
  } finally {
    const list = (await (await request.get("/api/policies")).json()) as {
      policies: { id: string; name: string }[];
    };
    for (const p of list.policies.filter((x) => x.name === name))
      await request.delete(`/api/policies/${p.id}`);
    await request.delete(`/api/channels/${channelId}`);
  }
});
