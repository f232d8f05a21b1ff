import { describe, expect, it } from "vitest";
import type { InstanceRow } from "@/lib/zod/schemas/instance.ts";
import {
  applyTableQuery,
  parseTableQuery,
  tableFacets,
  toggleSort,
  writeTableQuery,
} from "./table-state.ts";

function row(id: string, over: Partial<InstanceRow> = {}): InstanceRow {
  return {
    id,
    hostname: id,
    provider: "aws",
    instanceType: "p4d.24xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    state: "up",
    gpus: 8,
    gpusReporting: 8,
    utilMean: 0.5,
    memUsedBytes: 100,
    memTotalBytes: 1000,
    pricePerHourMicros: "32000000",
    currency: "USD",
    lastSeen: null,
    interruptionPending: false,
    interruptionAt: null,
    vgpuGuests: 0,
    ...over,
  };
}

const rows = [
  row("gpu-10", { team: "vision", utilMean: 0.9, pricePerHourMicros: null }),
  row("gpu-2", { provider: "gcp", team: "research", utilMean: 0.1 }),
  row("gpu-1", { provider: "gcp", state: "down", utilMean: null, project: "Vision-Eval" }),
  row("dgx-a100", { provider: "onprem", team: "platform", pricePerHourMicros: null }),
];

describe("parseTableQuery", () => {
  it("reads a shared URL and drops what it does not understand", () => {
    expect(
      parseTableQuery(new URLSearchParams("sort=util&dir=desc&team=vision&q=%20eval ")),
    ).toEqual({ sort: "util", dir: "desc", team: "vision", q: "eval" });
    expect(
      parseTableQuery({ sort: "bogus", dir: "up", state: "sideways", provider: ["gcp"] }),
    ).toEqual({ sort: "hostname", dir: "asc", provider: "gcp" });
  });
  it("round-trips through the URL, keeping unrelated parameters and omitting defaults", () => {
    const q = { sort: "price", dir: "asc", provider: "aws", state: "up", q: "p4d" } as const;
    const params = writeTableQuery(q, new URLSearchParams("range=6h&team=old"));
    expect(params.toString()).toBe("range=6h&sort=price&provider=aws&state=up&q=p4d");
    expect(parseTableQuery(params)).toEqual(q);
    expect(writeTableQuery({ sort: "hostname", dir: "asc" }).toString()).toBe("");
  });
});

describe("applyTableQuery", () => {
  it("sorts hostnames naturally and flips direction", () => {
    const asc = applyTableQuery(rows, { sort: "hostname", dir: "asc" }).map((r) => r.id);
    expect(asc).toEqual(["dgx-a100", "gpu-1", "gpu-2", "gpu-10"]);
    const desc = applyTableQuery(rows, { sort: "hostname", dir: "desc" }).map((r) => r.id);
    expect(desc).toEqual(["gpu-10", "gpu-2", "gpu-1", "dgx-a100"]);
  });
  it("keeps missing values last in both directions", () => {
    const byUtil = (dir: "asc" | "desc") =>
      applyTableQuery(rows, { sort: "util", dir }).map((r) => r.id);
    expect(byUtil("desc")).toEqual(["gpu-10", "dgx-a100", "gpu-2", "gpu-1"]);
    expect(byUtil("asc")).toEqual(["gpu-2", "dgx-a100", "gpu-10", "gpu-1"]);
    const byPrice = applyTableQuery(rows, { sort: "price", dir: "asc" }).map((r) => r.id);
    expect(byPrice.slice(2)).toEqual(["dgx-a100", "gpu-10"]);
  });
  it("filters by provider, team, state and text", () => {
    const ids = (q: Parameters<typeof applyTableQuery>[1]) =>
      applyTableQuery(rows, q).map((r) => r.id);
    expect(ids({ sort: "hostname", dir: "asc", provider: "gcp" })).toEqual(["gpu-1", "gpu-2"]);
    expect(ids({ sort: "hostname", dir: "asc", team: "research" })).toEqual(["gpu-1", "gpu-2"]);
    expect(ids({ sort: "hostname", dir: "asc", state: "down" })).toEqual(["gpu-1"]);
    expect(ids({ sort: "hostname", dir: "asc", q: "VISION" })).toEqual(["gpu-1", "gpu-10"]);
    expect(ids({ sort: "hostname", dir: "asc", provider: "gcp", state: "up" })).toEqual(["gpu-2"]);
  });
  it("offers facets and toggles sorting", () => {
    expect(tableFacets(rows)).toEqual({
      providers: ["aws", "gcp", "onprem"],
      teams: ["platform", "research", "vision"],
    });
    expect(toggleSort({ sort: "hostname", dir: "asc" }, "hostname").dir).toBe("desc");
    expect(toggleSort({ sort: "hostname", dir: "asc" }, "util")).toEqual({
      sort: "util",
      dir: "desc",
    });
    expect(toggleSort({ sort: "util", dir: "desc" }, "team").dir).toBe("asc");
  });
});
