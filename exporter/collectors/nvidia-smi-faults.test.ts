// The watchdog: nvidia-smi hangs, exits, prints garbage, then works again. Throughout, every
// scrape answers 200; while broken, success is 0 and GPU series vanish once stale; afterwards
// fresh values come back on their own; and no nvidia-smi outlives close().

import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "../log.ts";
import { liveChildCount } from "../nvidia/child.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import { UUID0, twoH100s } from "../test/fake-gpus.ts";
import { FAKE_NVSMI, FakeNvidiaSmi, sample, waitFor } from "../test/helpers.ts";

const INTERVAL = 100;

describe("nvidia-smi watchdog", () => {
  const fake = new FakeNvidiaSmi(twoH100s("50"));
  let exporter: RunningExporter | undefined;
  afterAll(() => exporter?.close());

  async function scrape(): Promise<string> {
    if (!exporter) throw new Error("not started");
    const res = await fetch(`${exporter.url}/metrics`);
    expect(res.status).toBe(200); // a broken source never fails the scrape
    return res.text();
  }

  const success = (t: string) =>
    sample(t, "gpu_exporter_collector_success", { collector: "nvidia_smi" });
  const temp = (t: string) => sample(t, "gpu_temperature_celsius", { uuid: UUID0 });

  async function expectHealthyWith(temperature: number, what: string) {
    await waitFor(async () => {
      const t = await scrape();
      return success(t) === 1 && temp(t) === temperature;
    }, `${what}: success 1 and temperature ${temperature}`);
  }

  async function expectBrokenAndDropped(what: string) {
    await waitFor(async () => success(await scrape()) === 0, `${what}: success 0`);
    await waitFor(async () => {
      const t = await scrape();
      return temp(t) === undefined && sample(t, "gpu_info") === undefined && success(t) === 0;
    }, `${what}: stale GPU series dropped`);
  }

  it("recovers from a hang, an exit and garbage, and leaves no child behind", async () => {
    exporter = await startExporter({
      listenAddress: "127.0.0.1:0",
      nvidiaSmiPath: FAKE_NVSMI,
      intervalMs: INTERVAL,
      staleAfterMs: 3 * INTERVAL,
      logger: silentLogger,
      tuning: { startupGraceMs: 200, commandTimeoutMs: 500, backoffMaxMs: 400 },
    });
    await expectHealthyWith(50, "start");

    fake.update({ mode: "hang" });
    const before = fake.runs().length;
    await expectBrokenAndDropped("hang");
    // the hung child was SIGKILLed and a new one started (which hangs too, in this mode)
    await waitFor(() => fake.runs().length > before, "a restart after the hang");
    fake.set(twoH100s("61"));
    await expectHealthyWith(61, "after hang");

    fake.update({ mode: "exit" });
    await expectBrokenAndDropped("exit");
    fake.set(twoH100s("62"));
    await expectHealthyWith(62, "after exit");

    fake.update({ mode: "garbage" });
    await expectBrokenAndDropped("garbage");
    fake.set(twoH100s("63"));
    await expectHealthyWith(63, "after garbage");

    // every child the exporter started is gone once it is closed
    const started = fake.runs().length;
    expect(started).toBeGreaterThan(6);
    await exporter.close();
    exporter = undefined;
    expect(liveChildCount()).toBe(0);
    expect(fake.alive()).toEqual([]);
  }, 30_000);
});
