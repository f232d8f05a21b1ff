"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { bannerFor } from "@/lib/fleet/health.ts";
import { formatMoney, formatRate } from "@/lib/format/money.ts";
import { addPriceHref } from "@/lib/pricing/prefill.ts";
import { instanceQueries } from "@/lib/queries/instances.ts";
import { HttpError } from "@/lib/queries/fetch-json.ts";
import { isRange, type Range } from "@/lib/zod/schemas/range.ts";
import { gpuMetricsFor } from "../charts/chart-line-gpu-metric.shape.ts";
import { LazyChartLineGpuMetric } from "../charts/lazy-charts.tsx";
import { RangePicker } from "../range-picker.tsx";
import { SourceBanner } from "../source-banner.tsx";
import { Stat } from "../stat.tsx";
import { LocalTime } from "../time-zone.tsx";
import { useSearchState } from "../use-search-state.ts";
import { GpuTable, MigTable, ProcessTable } from "./gpu-tables.tsx";
import { HostFacts } from "./host-facts.tsx";
import type { HostFactsView } from "@/lib/fleet/host-facts.ts";

const PRICING: Record<string, string> = {
  on_demand: "on-demand",
  spot: "spot",
  reserved: "reserved",
};

/** `related`: the signed-in role may open the alerts and recommendations pages (operator+);
 * `canPrice`: it may add catalogue prices (the unpriced mark links to a prefilled form). */
export function InstanceView({
  id,
  related,
  canPrice = false,
  facts = null,
}: {
  id: string;
  related: boolean;
  canPrice?: boolean;
  /** cloud facts, reclaim notice, virtualization and efficiency, read when the page loaded */
  facts?: HostFactsView | null;
}) {
  const [params, setParams] = useSearchState();
  const rangeParam = params.get("range");
  const range: Range = isRange(rangeParam) ? rangeParam : "1h";
  const detail = useQuery(instanceQueries.detail(id));
  const series = useQuery(instanceQueries.series(id, range));

  const setRange = (r: Range) => {
    const next = new URLSearchParams(params);
    if (r === "1h") next.delete("range");
    else next.set("range", r);
    setParams(next);
  };

  if (detail.isPending) {
    return (
      <p className="loading" role="status">
        Loading instance…
      </p>
    );
  }
  if (detail.error instanceof HttpError && detail.error.status === 404) {
    return (
      <section className="panel" data-testid="instance-not-found">
        <h1>Instance not found</h1>
        <p>
          No host has the id <code>{id}</code>. It may have been removed.{" "}
          <Link href="/">Back to the fleet</Link>.
        </p>
      </section>
    );
  }
  const banner = bannerFor({
    health: detail.data?.health,
    requestError: detail.error?.message ?? null,
    dataUpdatedAt: detail.dataUpdatedAt,
  });
  if (!detail.data) return <SourceBanner banner={banner} onRetry={() => void detail.refetch()} />;

  const { host, cost, gpus, mig, processes } = detail.data;
  const c = cost.currency;
  // With no price, the cost is unknown, not zero: never show $0 for it.
  const monthOnlyUnpriced = cost.monthToDateMicros === "0" && cost.unpricedHours > 0;
  const unpriced = <span className="unpriced">unpriced</span>;
  const domain: [number, number] = series.data
    ? [Date.parse(series.data.from), Date.parse(series.data.to)]
    : [0, 1];

  return (
    <>
      <div className="page-title">
        <h1 data-testid="instance-hostname">{host.hostname}</h1>
        <span className={`state state-${host.state}`}>{host.state}</span>
        <p>
          {host.provider} · <span className="mono">{host.instanceType}</span> · {host.region} ·{" "}
          {PRICING[host.pricingModel] ?? host.pricingModel} · team {host.team} · project{" "}
          {host.project} · last seen <LocalTime value={host.lastSeen} />
          {host.lastError ? <span className="unpriced"> ({host.lastError})</span> : null}
        </p>
        <span className="spacer" />
        {related ? (
          <nav className="links" aria-label="Related">
            <a href={`/alerts?host=${encodeURIComponent(host.id)}`} data-testid="link-alerts">
              Alerts for this instance
            </a>
            <a
              href={`/recommendations?host=${encodeURIComponent(host.id)}`}
              data-testid="link-recommendations"
            >
              Recommendations
            </a>
          </nav>
        ) : null}
      </div>
      <SourceBanner banner={banner} onRetry={() => void detail.refetch()} />

      <section className="stats" aria-label="Cost">
        <Stat
          testId="stat-price"
          label="Cost per hour"
          value={
            cost.pricePerHourMicros === null ? (
              <span className="unpriced">unpriced</span>
            ) : (
              formatRate(cost.pricePerHourMicros, c)
            )
          }
          sub={
            cost.pricePerHourMicros === null ? (
              canPrice ? (
                <a
                  href={addPriceHref({
                    ...host,
                    gpuModel: gpus[0]?.name ?? null,
                    gpuCount: gpus.length || null,
                  })}
                  data-testid="unpriced-link"
                >
                  no catalogue price matches: add one
                </a>
              ) : (
                "no catalogue price matches this instance: finance can add one"
              )
            ) : (
              (cost.priceNote ?? "catalogue price")
            )
          }
        />
        <Stat
          testId="stat-month"
          label={`Cost so far (${cost.month}, UTC)`}
          value={monthOnlyUnpriced ? unpriced : formatMoney(cost.monthToDateMicros, c)}
          sub={
            cost.unpricedHours > 0 ? `plus ${cost.unpricedHours} h unpriced` : "closed ledger hours"
          }
          data={{ "data-micros": cost.monthToDateMicros }}
        />
        <Stat
          testId="stat-idle-month"
          label="Idle cost this month"
          value={monthOnlyUnpriced ? unpriced : formatMoney(cost.idleMonthToDateMicros, c)}
          sub="GPU share × idle time"
        />
        <Stat
          testId="stat-idle-now"
          label="Idle GPUs cost now"
          value={
            cost.pricePerHourMicros === null ? unpriced : formatRate(cost.idleNowPerHourMicros, c)
          }
          sub={`${gpus.filter((g) => g.status === "held_idle" || g.status === "empty_idle").length} of ${gpus.length} GPUs idle`}
        />
      </section>

      <section className="panel" aria-labelledby="gpus-title">
        <div className="panel-head">
          <h2 id="gpus-title">GPUs now</h2>
        </div>
        <GpuTable gpus={gpus} />
      </section>
      {facts ? <HostFacts facts={facts} /> : null}

      <section aria-labelledby="charts-title">
        <div className="panel-head">
          <h2 id="charts-title">Per-GPU history</h2>
          <span className="spacer" />
          <RangePicker value={range} onChange={setRange} />
        </div>
        {series.data ? (
          <div className="chart-grid" data-testid="gpu-charts">
            {gpuMetricsFor(series.data.gpus).map((m) => (
              <LazyChartLineGpuMetric key={m} gpus={series.data.gpus} metric={m} domain={domain} />
            ))}
          </div>
        ) : series.isError ? (
          <div className="chart-empty">Could not load history: {series.error.message}</div>
        ) : (
          <div className="chart-empty" role="status">
            Loading history…
          </div>
        )}
      </section>

      <div className="two-col">
        <section className="panel" aria-labelledby="proc-title">
          <div className="panel-head">
            <h2 id="proc-title">Processes</h2>
          </div>
          <ProcessTable processes={processes} />
        </section>
        <section className="panel" aria-labelledby="mig-title">
          <div className="panel-head">
            <h2 id="mig-title">MIG instances</h2>
          </div>
          <MigTable mig={mig} />
        </section>
      </div>
    </>
  );
}
