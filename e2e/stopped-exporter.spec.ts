import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";

// An exporter that stops answering (here: the demo's simulated fleet frozen with SIGSTOP, the way
// a hung host looks from the network) must show as not reporting within two collection intervals
// (5 s in this suite, plus the 5 s scrape timeout), and recover once it answers again.

const exporterPort = Number(process.env.E2E_PORT ?? 3100) + 1;

function exporterPid(): number {
  const out = execFileSync("pgrep", ["-f", `exporter/main.ts.*127.0.0.1:${exporterPort}`], {
    encoding: "utf8",
  });
  const pid = Number(out.trim().split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no demo exporter on ${exporterPort}`);
  return pid;
}

test.describe("a stopped exporter", () => {
  test("shows as not reporting, then recovers", async ({ page, request }) => {
    test.setTimeout(120_000);
    const pid = exporterPid();
    const reporting = async () =>
      ((await (await request.get("/api/fleet")).json()) as { gpus: { reporting: number } }).gpus
        .reporting;
    expect(await reporting()).toBeGreaterThan(0);
    process.kill(pid, "SIGSTOP");
    const stoppedAt = Date.now();
    try {
      await expect.poll(reporting, { timeout: 30_000, intervals: [1000] }).toBe(0);
      const seconds = (Date.now() - stoppedAt) / 1000;
      // two 5 s intervals after the 5 s scrape timeout, plus one tick of slack
      expect(seconds).toBeLessThan(25);
      await page.goto("/?group=state");
      await expect(page.getByTestId("stat-gpus-value")).toContainText("0 /");
      // by state, the whole fleet is one group: not reporting, every GPU in it
      const known = await page.getByTestId("stat-gpus").getAttribute("data-known");
      const groups = page.getByTestId("fleet-group");
      await expect(groups).toHaveCount(1);
      await expect(groups.first()).toHaveAttribute("data-key", "not_reporting");
      await expect(groups.first()).toHaveAttribute("data-gpus", known ?? "");
    } finally {
      process.kill(pid, "SIGCONT");
    }
    await expect.poll(reporting, { timeout: 30_000, intervals: [1000] }).toBeGreaterThan(0);
  });
});
