import { describe, expect, it } from "vitest";
import type { InstantVector } from "./api.ts";
import { joinCurrent, type CurrentAnswers } from "./current.ts";

const T = 1_764_000_000;
const v = (metric: Record<string, string>, value: string): InstantVector[number] => ({
  metric,
  value: [T, value],
});
const A = "10.0.0.1:9835";
const B = "10.0.0.2:9835";

function answers(): CurrentAnswers {
  return {
    hosts: [v({ instance: A, hostname: "gpu-a" }, "1"), v({ instance: B, hostname: "dgx" }, "1")],
    up: [v({ instance: A }, "1"), v({ instance: B }, "0")],
    info: [
      v({ instance: A, uuid: "GPU-a0", gpu: "0", name: "A100" }, "1"),
      v({ instance: B, uuid: "GPU-b0", gpu: "0", name: "A100 80GB" }, "1"),
    ],
    migTotal: [
      v(
        { instance: B, uuid: "GPU-b0", gpu: "0", gpu_instance_id: "2", mig_profile: "3g.40gb" },
        "4e10",
      ),
    ],
    values: [
      ["util", [v({ instance: A, uuid: "GPU-a0", gpu: "0" }, "0.5")]],
      [
        "memUsedBytes",
        [
          v({ instance: A, uuid: "GPU-a0", gpu: "0" }, "100"),
          v({ instance: B, uuid: "GPU-b0", gpu: "0" }, "NaN"),
        ],
      ],
      ["processes", [v({ instance: A, uuid: "GPU-a0", gpu: "0" }, "2")]],
    ],
  };
}

describe("joinCurrent", () => {
  it("joins per-metric answers into GPUs and MIG slices of their hosts", () => {
    const gpus = joinCurrent(answers(), new Map([["gpu-a", "host-a"]]));
    expect(gpus).toHaveLength(3);
    expect(gpus[0]).toMatchObject({
      hostId: "host-a",
      hostname: "gpu-a",
      uuid: "GPU-a0",
      index: 0,
      name: "A100",
      util: 0.5,
      memUsedBytes: 100,
      processes: 2,
      reporting: true,
      parentUuid: null,
      lastSeen: new Date(T * 1000),
    });
    // a host not in the store keeps its hostname as id; a down target is not reporting
    expect(gpus[1]).toMatchObject({
      hostId: "dgx",
      uuid: "GPU-b0",
      reporting: false,
      memUsedBytes: null,
    });
    expect(gpus[2]).toMatchObject({
      uuid: "GPU-b0:gi2",
      parentUuid: "GPU-b0",
      migProfile: "3g.40gb",
      memTotalBytes: 4e10,
    });
  });
});
