import { describe, expect, it } from "vitest";
import { parseExposition } from "./exposition.ts";
import { interruptionFrom, snapshotFromSamples } from "./snapshot.ts";
import { accumulate } from "./minute-acc.ts";

// Issue 16: what the exporter knows of its host and GPUs, read from one exposition page.

const PAGE = `# TYPE gpu_host_info gauge
gpu_host_info{hostname="gpu-aws-usw2-003",provider="aws",instance_type="p4d.24xlarge",region="us-west-2",zone="us-west-2a",pricing_model="spot",instance_id="i-0abc123",rack="r7"} 1
gpu_host_interruption_pending 1
gpu_host_interruption_time_seconds 1795000000
gpu_info{gpu="0",uuid="GPU-0",name="A100",mig_mode="Disabled",virtualization_mode="VGPU"} 1
gpu_info{gpu="1",uuid="GPU-1",name="A100",mig_mode="Disabled",virtualization_mode="None"} 1
gpu_vgpu_licensed{gpu="0",uuid="GPU-0",licensed_product="NVIDIA Virtual Compute Server"} 0
gpu_utilization_ratio{gpu="0",uuid="GPU-0"} 0.97
gpu_sm_active_ratio{gpu="0",uuid="GPU-0"} 0.004
gpu_tensor_active_ratio{gpu="0",uuid="GPU-0"} 0
gpu_utilization_ratio{gpu="1",uuid="GPU-1"} 0.5
`;

describe("host and GPU facts in a snapshot", () => {
  const snap = snapshotFromSamples(parseExposition(PAGE).samples);

  it("reads zone and instance_id as host facts, not extra labels", () => {
    expect(snap.info).toMatchObject({
      hostname: "gpu-aws-usw2-003",
      zone: "us-west-2a",
      instanceId: "i-0abc123",
      pricingModel: "spot",
      labels: { rack: "r7" },
    });
  });

  it("reads the spot reclaim notice with its announced time", () => {
    expect(snap.interruption).toEqual({ pending: true, at: 1795000000_000 });
  });

  it("reads the virtualization mode, the vGPU licence and the profiling ratios per GPU", () => {
    const [g0, g1] = snap.gpus;
    expect(g0).toMatchObject({
      virtualizationMode: "VGPU",
      vgpuLicensed: false,
      util: 0.97,
      smActive: 0.004,
      tensorActive: 0,
    });
    expect(g1?.virtualizationMode).toBe("None");
    expect(g1?.vgpuLicensed).toBeUndefined();
    expect(g1?.smActive).toBeUndefined();
  });

  it("leaves facts null where the exporter does not serve them", () => {
    const bare = snapshotFromSamples(
      parseExposition(
        'gpu_host_info{hostname="h",provider="gcp"} 1\ngpu_info{gpu="0",uuid="G",name="L4"} 1\n',
      ).samples,
    );
    expect(bare.info).toMatchObject({ zone: null, instanceId: null, labels: {} });
    expect(bare.interruption).toBeNull();
    expect(bare.gpus[0]?.virtualizationMode).toBeNull();
  });

  it("averages SM and tensor active over the minute's samples, absent ones left out", () => {
    const [g0, g1] = snap.gpus;
    if (!g0 || !g1) throw new Error("two GPUs expected");
    const t = Date.UTC(2026, 11, 1, 2, 0, 0);
    let agg = accumulate(undefined, t, g0, 0);
    agg = accumulate(agg, t + 15_000, { ...g0, smActive: 0.006 }, 0);
    agg = accumulate(agg, t + 30_000, { ...g0, smActive: null }, 0);
    expect(agg.smActive).toEqual({ sum: 0.01, n: 2 });
    expect(accumulate(undefined, t, g1, 0).smActive).toEqual({ sum: 0, n: 0 });
  });
});

describe("interruptionFrom", () => {
  it("is null without the series, and keeps no time once the notice ends", () => {
    expect(interruptionFrom(null, null)).toBeNull();
    expect(interruptionFrom(Number.NaN, 5)).toBeNull();
    expect(interruptionFrom(0, 0)).toEqual({ pending: false, at: null });
    expect(interruptionFrom(0, 1795000000)).toEqual({ pending: false, at: null });
  });
  it("has no time when pending with none announced", () => {
    expect(interruptionFrom(1, 0)).toEqual({ pending: true, at: null });
    expect(interruptionFrom(1, null)).toEqual({ pending: true, at: null });
  });
});
