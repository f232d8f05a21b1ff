import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CurrentGpu } from "@/lib/metrics/source.ts";
import { buildGrid } from "@/lib/fleet/grid.ts";
import { buildFleetIndex } from "@/lib/fleet/overview.ts";
import type { HostLike } from "@/lib/fleet/summarize.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { DEFAULT_TABLE_QUERY } from "@/lib/zod/schemas/instance-query.ts";
import type { InstanceRow } from "@/lib/zod/schemas/instance.ts";
import { AttentionList } from "./attention-list.tsx";
import { FleetGroups } from "./fleet-groups.tsx";
import { GroupCells } from "./group-cells.tsx";
import { InstanceTable, ROWS_STEP } from "./instance-table.tsx";

// Server-renders the fleet page's parts from data of a large fleet: what is drawn at first is
// bounded (groups collapsed, one page of problems, the first rows of the table).

const count = (html: string, testId: string) => html.split(`data-testid="${testId}"`).length - 1;

function render(node: ReactNode, client = new QueryClient()): string {
  // without React's text separators, so text reads as it shows
  return renderToString(
    <QueryClientProvider client={client}>{node}</QueryClientProvider>,
  ).replaceAll("<!-- -->", "");
}

function fleet(gpus: number) {
  const hosts: HostLike[] = [];
  const current: CurrentGpu[] = [];
  for (let i = 0; i < gpus; i++) {
    const h = Math.floor(i / 8);
    if (i % 8 === 0)
      hosts.push({
        id: `h${h}`,
        hostname: `host-${String(h).padStart(4, "0")}`,
        provider: h % 2 ? "aws" : "gcp",
        instanceType: "x",
        region: "r",
        pricingModel: "on_demand",
        team: `team-${h % 5}`,
        project: "p",
        state: "up",
        lastSeen: null,
      });
    current.push({
      hostId: `h${h}`,
      hostname: `host-${String(h).padStart(4, "0")}`,
      uuid: `g${i}`,
      index: i % 8,
      name: "NVIDIA H100",
      util: i % 4 === 0 ? 0 : 0.7,
      memUsedBytes: 0,
      memTotalBytes: 80e9,
      powerWatts: null,
      tempCelsius: 50,
      processes: 0,
      lastSeen: null,
      reporting: true,
      parentUuid: null,
      migProfile: null,
    });
  }
  return buildFleetIndex(hosts, buildGrid(current), current);
}

describe("fleet page parts at 4,000 GPUs", () => {
  const index = fleet(4000);

  it("groups render collapsed, with counts and no GPU cells", () => {
    const html = render(<FleetGroups groups={index.overview.groups} by="team" onBy={() => {}} />);
    expect(count(html, "fleet-group")).toBe(5);
    expect(count(html, "gpu-cell")).toBe(0);
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain("800 GPUs · 100 hosts");
    expect(html).toContain("200 need attention");
  });

  it("the problem list draws its first page and says how many there are", () => {
    const html = render(<AttentionList attention={index.overview.attention} />);
    expect(count(html, "attention-row")).toBe(50);
    expect(html).toContain("1–50 of 1,000");
    expect(html).toContain('data-testid="attention-idle" data-count="1000"');
  });

  it("a page of a group's GPUs renders a cell each, by host", () => {
    const client = new QueryClient();
    const page = index.groups.team.get("team-0")?.slice(0, 500) ?? [];
    client.setQueryData(fleetQueries.gpus("team", "team-0", 1, 500).queryKey, {
      generatedAt: "2026-11-10T12:00:00.000Z",
      by: "team",
      key: "team-0",
      total: 800,
      page: 1,
      pageSize: 500,
      pages: 2,
      gpus: page.map((g) => ({ ...g, holders: [] })),
    });
    const html = render(<GroupCells by="team" groupKey="team-0" total={800} />, client);
    expect(count(html, "gpu-cell")).toBe(500);
    expect(count(html, "grid-host")).toBe(63);
    expect(html).toContain("page 1 of 2");
  });
});

describe("instance table", () => {
  const rows: InstanceRow[] = Array.from({ length: 250 }, (_, i) => ({
    id: `h${i}`,
    hostname: `host-${String(i).padStart(3, "0")}`,
    provider: "aws",
    instanceType: "p5.48xlarge",
    region: "us-east-1",
    pricingModel: "on_demand",
    team: "research",
    project: "llm",
    state: "up",
    gpus: 8,
    gpusReporting: 8,
    utilMean: 0.5,
    memUsedBytes: 1,
    memTotalBytes: 2,
    pricePerHourMicros: "1000000",
    currency: "USD",
    lastSeen: null,
    interruptionPending: false,
    interruptionAt: null,
    vgpuGuests: 0,
  }));

  it("draws the first rows of a large fleet and offers the rest", () => {
    const html = render(
      <InstanceTable rows={rows} query={DEFAULT_TABLE_QUERY} onChange={() => {}} />,
    );
    expect(count(html, "instance-row")).toBe(ROWS_STEP);
    expect(html).toContain("250 of 250 instances");
    expect(count(html, "instances-more")).toBe(1);
  });
});
