import { describe, expect, it } from "vitest";
import { targetsFromFileSd } from "./targets.ts";

describe("targetsFromFileSd", () => {
  it("builds each target's URL from __scheme__ and __metrics_path__, and hides __ labels", () => {
    const targets = targetsFromFileSd([
      {
        targets: ["127.0.0.1:9445"],
        labels: {
          __metrics_path__: "/hosts/3/metrics",
          __meta_gpufleet_hostname: "gpu-aws-use1-004",
          instance: "127.0.0.1:9445/hosts/3/metrics",
          team: "research",
        },
      },
      { targets: ["10.0.0.12:9445"], labels: { __scheme__: "https" } },
    ]);
    expect(targets).toEqual([
      {
        url: "http://127.0.0.1:9445/hosts/3/metrics",
        labels: { instance: "127.0.0.1:9445/hosts/3/metrics", team: "research" },
        hostnameHint: "gpu-aws-use1-004",
      },
      { url: "https://10.0.0.12:9445/metrics", labels: {} },
    ]);
  });

  it("refuses what is not file_sd JSON", () => {
    expect(() => targetsFromFileSd({ targets: [] })).toThrow();
    expect(() => targetsFromFileSd([{ targets: [1] }])).toThrow();
  });
});
