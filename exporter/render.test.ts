// renderRegistry writes prom-client's own rendering, family by family, into one buffer: the same
// bytes as registry.metrics() whatever the size hint (multi-byte label values included), counters
// named back after OpenMetrics, and the event loop let run while it renders.

import { describe, expect, it } from "vitest";
import { Counter, Gauge, Registry } from "./prom.ts";
import { renderRegistry } from "./render.ts";

function registry(families: number): Registry {
  const r: Registry = new Registry();
  for (let f = 0; f < families; f++) {
    const g = new Gauge({
      name: `fam_${f}_ratio`,
      help: `family ${f}, with "quotes" and a \\ backslash`,
      labelNames: ["gpu", "user"],
      registers: [r],
    });
    for (let i = 0; i < 20; i++) g.set({ gpu: String(i), user: `zoë\n"${i}"` }, i / 7);
  }
  const c = new Counter({
    name: "errs_total",
    help: "ECC-like counter",
    labelNames: ["type"],
    registers: [r],
  });
  c.inc({ type: "corrected" }, 3);
  c.inc({ type: "uncorrected" }, 0);
  return r;
}

async function reference(r: Registry, om: boolean): Promise<string> {
  const names = r.getMetricsAsArray().map((m) => [m, m.name] as const);
  if (om) r.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  try {
    return await r.metrics();
  } finally {
    r.setContentType(Registry.PROMETHEUS_CONTENT_TYPE);
    for (const [m, name] of names) m.name = name;
  }
}

describe("renderRegistry", () => {
  it("gives registry.metrics()'s bytes, text and OpenMetrics, for any size hint", async () => {
    const r = registry(9);
    const text = await reference(r, false);
    const om = await reference(r, true);
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length); // ë is two bytes
    for (const hint of [0, 100, Buffer.byteLength(text), 10 * Buffer.byteLength(text)]) {
      expect((await renderRegistry(r, "text", hint)).toString("utf8")).toBe(text);
      expect((await renderRegistry(r, "openmetrics", hint)).toString("utf8")).toBe(om);
    }
    expect(om).toMatch(/^errs_total\{type="corrected"\} 3$/m);
    expect(om).toMatch(/^# TYPE errs counter$/m);
    expect(om.endsWith("\n# EOF\n")).toBe(true);
  });

  it("puts the counters' names and the content type back after OpenMetrics", async () => {
    const r = registry(2);
    await renderRegistry(r, "openmetrics");
    expect(r.getMetricsAsArray().map((m) => m.name)).toContain("errs_total");
    expect(r.contentType).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
    expect((await renderRegistry(r, "text")).toString()).toBe(await r.metrics());
  });

  it("lets the event loop run while it renders", async () => {
    const r = registry(12);
    let ran = false;
    setImmediate(() => (ran = true));
    await renderRegistry(r, "text");
    // registry.metrics() resolves in microtasks only: an immediate queued before it would not run
    expect(ran).toBe(true);
  });

  it("rejects when a family fails to render, with the registry left as it was", async () => {
    const r = registry(2);
    new Gauge({
      name: "broken",
      help: "throws while rendered",
      registers: [r],
      collect() {
        throw new Error("boom");
      },
    });
    await expect(renderRegistry(r, "openmetrics")).rejects.toThrow("boom");
    expect(r.contentType).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
    expect(r.getMetricsAsArray().map((m) => m.name)).toContain("errs_total");
  });
});
