// /compare's "cost per unit of work" table: what was measured here (the hosts' own counters against
// the ledger) beside what was published (benchmark results), per instance type, each saying which
// it is, so a published figure is never read as a measurement of this type.
import type { BenchmarkDto } from "../benchmarks/schema.ts";
import type { TypeModelRowDto } from "./schema.ts";

export interface CompareWorkRow {
  provider: string;
  instanceType: string;
  kind: "measured" | "published";
  /** the model (measured) or the benchmark's workload (published) */
  workload: string;
  per: string;
  /** null: not enough data, or no price */
  perMicros: string | null;
  status: TypeModelRowDto["status"] | "published";
  /** "measured here, 31 hours, this month" / "published, not measured on this type" */
  label: string;
  /** the published figure's source (empty for measured rows) */
  source: string;
}

const key = (provider: string, type: string) =>
  `${provider.toLowerCase()}\u0000${type.toLowerCase()}`;

function when(month: string, currentMonth: string): string {
  return month === currentMonth ? "this month" : `in ${month}`;
}

export function compareWorkRows(
  measured: readonly TypeModelRowDto[],
  published: readonly BenchmarkDto[],
  month: string,
  currentMonth: string,
): CompareWorkRow[] {
  const measuredTypes = new Set(measured.map((m) => key(m.provider, m.instanceType)));
  const rows: CompareWorkRow[] = measured.map((m) => ({
    provider: m.provider,
    instanceType: m.instanceType,
    kind: "measured",
    workload: `${m.model}${m.mixed ? " (mixed host, per-host cost)" : ""}`,
    per: m.per,
    perMicros: m.perMicros,
    status: m.status,
    label: `measured here, ${m.hours} ${m.hours === 1 ? "hour" : "hours"}, ${when(month, currentMonth)}`,
    source: "",
  }));
  for (const b of published) {
    const cost = b.costs.find((c) => c.pricingModel === "on_demand") ?? b.costs[0] ?? null;
    rows.push({
      provider: b.provider,
      instanceType: b.instanceType,
      kind: "published",
      workload: b.workload,
      per: cost?.per ?? `$ per ${b.unit}`,
      perMicros: cost?.micros ?? null,
      status: "published",
      label: measuredTypes.has(key(b.provider, b.instanceType))
        ? "published"
        : "published, not measured on this type",
      source: b.source,
    });
  }
  return rows.sort(
    (a, b) =>
      a.provider.localeCompare(b.provider) ||
      a.instanceType.localeCompare(b.instanceType) ||
      a.kind.localeCompare(b.kind) ||
      a.workload.localeCompare(b.workload),
  );
}
