// vGPU software licence state, from the occasional `nvidia-smi -q -x` snapshot. A guest whose
// licence lapses is throttled by the driver, so an unlicensed GPU explains a "slow" one. The
// series are registered only once a GPU reports a licence, so other hosts show no empty HELP.

import { METRIC } from "./contract.ts";
import { Gauge, type Registry } from "./prom.ts";
import type { StateView } from "./state.ts";

export function createVgpuMetrics(registry: Registry): (view: StateView) => void {
  const licensed = new Gauge({
    name: METRIC.vgpuLicensed,
    help: "1 while the vGPU software licence is held, 0 while unlicensed (vGPU guests only).",
    labelNames: ["gpu", "uuid", "licensed_product"],
    registers: [],
  });
  const expiry = new Gauge({
    name: METRIC.vgpuLicenseExpiry,
    help: "Unix time at which the held vGPU licence expires, where the driver reports it.",
    labelNames: ["gpu", "uuid"],
    registers: [],
  });
  let registered = false;
  return (view) => {
    licensed.reset();
    expiry.reset();
    if (!registered && [...view.details.values()].some((d) => d.vgpuLicensed !== undefined)) {
      registry.registerMetric(licensed);
      registry.registerMetric(expiry);
      registered = true;
    }
    for (const g of view.gpus) {
      const d = view.details.get(g.uuid);
      if (d?.vgpuLicensed === undefined) continue;
      const l = { gpu: String(g.index), uuid: g.uuid };
      licensed.set({ ...l, licensed_product: d.vgpuLicensedProduct ?? "" }, d.vgpuLicensed ? 1 : 0);
      if (d.vgpuLicenseExpirySeconds !== undefined) expiry.set(l, d.vgpuLicenseExpirySeconds);
    }
  };
}
