import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { costQueries } from "@/lib/queries/costs.ts";
import type { HolderSpend } from "@/lib/zod/schemas/holder-spend.ts";
import { HolderTable } from "./holder-table.tsx";

const row = (holder: string, idle: string, cost: string, held = true) => ({
  holder,
  held,
  gpuHours: 1,
  costMicros: cost,
  idleGpuHours: 0.5,
  idleMicros: idle,
  longestIdleSeconds: 5400,
  displayCostMicros: cost,
  displayIdleMicros: idle,
});
const spend: HolderSpend = {
  month: "2026-11",
  currency: "USD",
  pseudonymous: true,
  totalMicros: "9000000",
  idleMicros: "3000000",
  displayTotalMicros: "9000000",
  displayIdleMicros: "3000000",
  rows: [
    row("alice", "1000000", "3000000"),
    row("bob", "2000000", "4000000"),
    row("not held (no process named a holder)", "0", "2000000", false),
  ],
};

function render(): string {
  const client = new QueryClient();
  client.setQueryData(costQueries.holders("2026-11").queryKey, spend);
  return renderToString(
    <QueryClientProvider client={client}>
      <HolderTable month="2026-11" />
    </QueryClientProvider>,
  );
}

describe("who holds idle GPUs", () => {
  const html = render();
  it("lists holders by idle cost, most first, the time nobody held last, then the total", () => {
    const names = [
      ...html.matchAll(/data-testid="holder-row"[^>]*><td>(?:<span[^>]*>)?([^<]+)/g),
    ].map((m) => m[1]);
    expect(names).toEqual(["bob", "alice", "not held (no process named a holder)"]);
    const costs = [...html.matchAll(/data-testid="holder-cost"[^>]*>\$([\d.,]+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(costs.reduce((a, b) => a + b, 0)).toBe(9);
    expect(html).toMatch(/data-testid="holder-total-cost" data-micros="9000000"[^>]*>\$9\.00/);
  });

  it("links the CSV for the month and says when names are pseudonyms", () => {
    expect(html).toContain('href="/api/costs/holders.csv?month=2026-11"');
    expect(html).toContain("pseudonyms");
    expect(html).toContain("1.5 h");
  });
});
