import { formatMoney, formatRate } from "@/lib/format/money.ts";
import { formatBytesOf, formatInteger, formatRatio } from "@/lib/format/number.ts";
import type { FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { Stat } from "../stat.tsx";

export function FleetHeadline({ s }: { s: FleetSummary }) {
  const c = s.burn.currency;
  const memRatio = s.memory.totalBytes > 0 ? s.memory.usedBytes / s.memory.totalBytes : null;
  const down = s.hosts.down + s.hosts.unknown;
  return (
    <section className="stats" aria-label="Fleet now">
      <Stat
        testId="stat-gpus"
        label="GPUs reporting / known"
        value={`${formatInteger(s.gpus.reporting)} / ${formatInteger(s.gpus.known)}`}
        sub={`${s.hosts.total} hosts${down > 0 ? `, ${down} not up` : ""}`}
        data={{ "data-known": s.gpus.known, "data-reporting": s.gpus.reporting }}
      />
      <Stat
        testId="stat-util"
        label="Mean SM utilization"
        value={formatRatio(s.utilMean)}
        sub="over reporting GPUs"
      />
      <Stat
        testId="stat-memory"
        label="GPU memory in use"
        value={formatRatio(memRatio)}
        sub={formatBytesOf(s.memory.usedBytes, s.memory.totalBytes)}
      />
      <Stat
        testId="stat-burn"
        label="Current burn"
        value={formatRate(s.burn.perHourMicros, c)}
        sub={
          s.burn.unpricedHosts > 0
            ? `${s.burn.unpricedHosts} host${s.burn.unpricedHosts === 1 ? "" : "s"} unpriced (not included)`
            : "catalogue price of hosts that are up"
        }
        data={{ "data-micros": s.burn.perHourMicros }}
      />
      <Stat
        testId="stat-mtd"
        label={`Month to date (${s.month.month}, UTC)`}
        value={formatMoney(s.month.spendMicros, c)}
        sub={
          <>
            {s.month.forecastMicros !== null
              ? `forecast ${formatMoney(s.month.forecastMicros, c)}`
              : "forecast after 3 days of data"}
            {s.month.budgetMicros !== null
              ? ` · budget ${formatMoney(s.month.budgetMicros, c)}`
              : ""}
          </>
        }
        data={{ "data-micros": s.month.spendMicros }}
      />
      <Stat
        testId="stat-idle"
        label="Idle GPUs now"
        value={`${formatInteger(s.idle.count)} · ${formatRate(s.idle.perHourMicros, c)}`}
        sub={`${s.idle.heldIdle} held but idle, ${s.idle.emptyIdle} empty (SM < 5%)`}
        data={{ "data-count": s.idle.count, "data-micros": s.idle.perHourMicros }}
      />
    </section>
  );
}
