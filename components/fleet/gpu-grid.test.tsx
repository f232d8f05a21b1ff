import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GpuGrid, describe as describeCell, type CellGpu } from "./gpu-grid.tsx";

// The grid cell's tooltip names who holds the GPU (issue 24), as the page gave the names.

function cell(uuid: string, holders?: string[]): CellGpu {
  return {
    uuid,
    hostId: "h",
    hostname: "gpu-aws-use1-001",
    index: Number(uuid.slice(-1)),
    name: "NVIDIA H100",
    util: 0.01,
    memUsedBytes: 40e9,
    memTotalBytes: 80e9,
    processes: holders?.length ?? 0,
    migSlices: 0,
    status: "held_idle",
    ...(holders ? { holders } : {}),
  };
}

describe("the GPU grid's tooltip", () => {
  it("names the holders, the first three and how many more", () => {
    expect(describeCell(cell("g0", ["alice · python"]))).toMatch(/ · held by alice · python$/);
    expect(describeCell(cell("g1", ["a", "b", "c", "d", "e"]))).toMatch(
      / · held by a, b, c and 2 more$/,
    );
    expect(describeCell(cell("g2", []))).not.toContain("held by");
    expect(describeCell(cell("g3"))).not.toContain("held by");
  });

  it("puts it in each cell's title and accessible name", () => {
    const html = renderToString(<GpuGrid grid={[cell("g0", ["user-3fa9c2d1 · process"])]} />);
    expect(html).toContain('title="gpu-aws-use1-001 GPU 0');
    expect(html).toMatch(/aria-label="[^"]* · held by user-3fa9c2d1 · process"/);
  });
});
