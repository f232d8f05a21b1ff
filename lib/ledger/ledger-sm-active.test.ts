import { describe, expect, it } from "vitest";
import { gpu, gpuRows, host, HOUR, priceOf, series } from "./ledger-fixtures.ts";
import { computeHostHour } from "./ledger-math.ts";
import type { HostSample, LedgerRow } from "./ledger-types.ts";

// The ledger's idle scan where SM active exists: a minute with SM active under 1 % is low even
// when utilization.gpu reads busy; without SM active, utilization decides as before.

function run(samples: HostSample[]): LedgerRow[] {
  const h = host({ instanceType: "p4d.24xlarge" });
  return computeHostHour({
    hourStart: HOUR,
    host: h,
    price: priceOf(h),
    samples,
    intervalSeconds: 60,
  });
}

describe("idle scan with SM active", () => {
  const rows = run(
    series(-1860, 3600, 60, (s) => [
      // a stuck loop: utilization ~1.0, SM active ~0, the whole time
      gpu("GPU-stuck", { util: 0.99, smActive: 0.003 }),
      // real work
      gpu("GPU-busy", { util: 0.95, smActive: 0.7 }),
      // no profiling: utilization decides
      gpu("GPU-plain", { util: 0.97 }),
      // stuck from 10:20 on: idle (30 min later) from 10:50
      gpu("GPU-late", { util: 0.99, smActive: s < 1200 ? 0.5 : 0.002 }),
      // SM active just at the bound is not idle
      gpu("GPU-bound", { util: 0.99, smActive: 0.01 }),
    ]),
  );
  const idle = new Map(gpuRows(rows).map((r) => [r.gpuKey, r.idleSeconds]));

  it("counts SM active under 1 % as idle whatever utilization says", () => {
    expect(idle.get("GPU-stuck")).toBe(3600);
    expect(idle.get("GPU-late")).toBe(600);
  });

  it("leaves working GPUs, GPUs without profiling and the bound itself busy", () => {
    expect(idle.get("GPU-busy")).toBe(0);
    expect(idle.get("GPU-plain")).toBe(0);
    expect(idle.get("GPU-bound")).toBe(0);
  });
});
