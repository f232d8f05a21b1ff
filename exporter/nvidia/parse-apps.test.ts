import { describe, expect, it } from "vitest";
import { HAVE_SHARED, own, shared } from "../test/helpers.ts";
import { APP_FIELDS } from "./fields.ts";
import { parseComputeApps } from "./parse-apps.ts";

const MIB = 1024 ** 2;

describe.skipIf(!HAVE_SHARED)("real --query-compute-apps capture", () => {
  it("reads the H100 MIG processes against the parent GPU's uuid", () => {
    const { items, warnings } = parseComputeApps(
      shared("query-compute-apps-h100-80gb-mig-590-load.csv"),
    );
    expect(warnings).toEqual([]);
    expect(items).toEqual([
      {
        gpuUuid: "GPU-00000000-0000-0000-0000-000000000000",
        pid: 21180,
        processName: "/root/tools/memhog",
        usedMemoryBytes: 2296 * MIB,
      },
      {
        gpuUuid: "GPU-00000000-0000-0000-0000-000000000000",
        pid: 21181,
        processName: "/root/tools/memhog",
        usedMemoryBytes: 1272 * MIB,
      },
      {
        gpuUuid: "GPU-00000000-0000-0000-0000-000000000000",
        pid: 21198,
        processName: "./gpu_burn",
        usedMemoryBytes: 7484 * MIB,
      },
    ]);
  });
});

describe("own compute-apps fixture (the exporter's own field order, no header)", () => {
  const { items, warnings } = parseComputeApps(own("query-compute-apps-tokens.csv"), APP_FIELDS);

  it("keeps commas inside process names and leaves [N/A] memory absent", () => {
    expect(items).toEqual([
      {
        gpuUuid: "GPU-aaaaaaaa-0000-0000-0000-000000000000",
        pid: 4242,
        processName: "python3",
        usedMemoryBytes: 7484 * MIB,
      },
      {
        gpuUuid: "GPU-aaaaaaaa-0000-0000-0000-000000000000",
        pid: 4243,
        processName: "/opt/app/bin/worker, with, commas",
      },
      {
        gpuUuid: "GPU-cccccccc-0000-0000-0000-000000000000",
        pid: 4300,
        processName: "./gpu_burn",
        usedMemoryBytes: 1272 * MIB,
      },
    ]);
  });

  it("skips the 'no processes' notice silently and garbage with a warning", () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not a process line/);
  });
});
