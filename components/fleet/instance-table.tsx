"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { applyTableQuery, tableFacets, toggleSort } from "@/lib/fleet/table-state.ts";
import { formatRate } from "@/lib/format/money.ts";
import { formatBytesOf, formatRatio } from "@/lib/format/number.ts";
import { addPriceHref } from "@/lib/pricing/prefill.ts";
import type { InstanceRow } from "@/lib/zod/schemas/instance.ts";
import type { SortKey, TableQuery } from "@/lib/zod/schemas/instance-query.ts";
import { HOST_STATES } from "@/lib/zod/schemas/instance.ts";
import { TableWrap } from "../table-wrap.tsx";
import { instanceHref } from "@/lib/fleet/instance-href.ts";
import { reclaimNote, vgpuBadgeTitle } from "@/lib/fleet/host-facts.ts";

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: "hostname", label: "Host" },
  { key: "provider", label: "Provider" },
  { key: "instanceType", label: "Type" },
  { key: "pricingModel", label: "Pricing" },
  { key: "team", label: "Team" },
  { key: "gpus", label: "GPUs", numeric: true },
  { key: "util", label: "Mean util.", numeric: true },
  { key: "memory", label: "Memory", numeric: true },
  { key: "price", label: "$/h", numeric: true },
  { key: "state", label: "State" },
];

/** Rows drawn at first and per "show more": a large fleet's table is thousands of hosts. */
export const ROWS_STEP = 100;

const PRICING_LABELS: Record<string, string> = {
  on_demand: "on-demand",
  spot: "spot",
  reserved: "reserved",
};

function Filters({
  rows,
  query,
  onChange,
}: {
  rows: readonly InstanceRow[];
  query: TableQuery;
  onChange: (q: TableQuery) => void;
}) {
  const facets = useMemo(() => tableFacets(rows), [rows]);
  // A shared link may name a value no current host has; keep it selectable so the view is honest.
  const withCurrent = (values: string[], current: string | undefined) =>
    current && !values.includes(current) ? [...values, current] : values;
  const providers = withCurrent(facets.providers, query.provider);
  const teams = withCurrent(facets.teams, query.team);
  const set = (patch: Partial<TableQuery>) => onChange({ ...query, ...patch });
  const active = Boolean(query.provider || query.team || query.state || query.q);
  return (
    <div className="filters" role="search" aria-label="Filter instances">
      <label className="field">
        Search
        <input
          type="search"
          value={query.q ?? ""}
          placeholder="host, type, region, project"
          onChange={(e) => set({ q: e.target.value.slice(0, 100) || undefined })}
          data-testid="filter-q"
        />
      </label>
      <label className="field">
        Provider
        <select
          value={query.provider ?? ""}
          onChange={(e) => set({ provider: e.target.value || undefined })}
          data-testid="filter-provider"
        >
          <option value="">All providers</option>
          {providers.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Team
        <select
          value={query.team ?? ""}
          onChange={(e) => set({ team: e.target.value || undefined })}
          data-testid="filter-team"
        >
          <option value="">All teams</option>
          {teams.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        State
        <select
          value={query.state ?? ""}
          onChange={(e) => {
            const v = HOST_STATES.find((s) => s === e.target.value);
            set({ state: v });
          }}
          data-testid="filter-state"
        >
          <option value="">Any state</option>
          {HOST_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {active ? (
        <button
          type="button"
          onClick={() => onChange({ sort: query.sort, dir: query.dir })}
          data-testid="filter-clear"
        >
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

function Row({ r, canPrice }: { r: InstanceRow; canPrice: boolean }) {
  const mem = r.memUsedBytes !== null && r.memTotalBytes ? r.memUsedBytes / r.memTotalBytes : null;
  const vgpu = vgpuBadgeTitle(r);
  const reclaim = reclaimNote(r);
  return (
    <tr data-testid="instance-row" data-host={r.hostname} data-team={r.team}>
      <td>
        <Link href={instanceHref(r.hostname)}>{r.hostname}</Link>
        {vgpu ? (
          <>
            {" "}
            <span className="badge" title={vgpu} data-testid="vgpu-badge">
              vGPU
            </span>
          </>
        ) : null}
        {reclaim ? (
          <>
            {" "}
            <span className="muted small" role="note" data-testid="reclaim-note">
              {reclaim}
            </span>
          </>
        ) : null}
      </td>
      <td>{r.provider}</td>
      <td className="mono">{r.instanceType}</td>
      <td>{PRICING_LABELS[r.pricingModel] ?? r.pricingModel}</td>
      <td>{r.team}</td>
      <td className="num" title={`${r.gpusReporting} of ${r.gpus} reporting`}>
        {r.gpusReporting === r.gpus ? r.gpus : `${r.gpusReporting}/${r.gpus}`}
      </td>
      <td className="num">{formatRatio(r.utilMean)}</td>
      <td className="num" title={formatRatio(mem)}>
        {formatBytesOf(r.memUsedBytes, r.memTotalBytes)}
      </td>
      <td className="num">
        {r.pricePerHourMicros === null ? (
          canPrice ? (
            <a
              className="unpriced"
              href={addPriceHref({ ...r, gpuCount: r.gpus })}
              title="No catalogue price matches: add one"
              data-testid="unpriced-link"
            >
              unpriced
            </a>
          ) : (
            <span className="unpriced" title="No catalogue price matches: finance can add one">
              unpriced
            </span>
          )
        ) : (
          formatRate(r.pricePerHourMicros, r.currency)
        )}
      </td>
      <td>
        <span className={`state state-${r.state}`}>{r.state}</span>
      </td>
    </tr>
  );
}

export function InstanceTable({
  rows,
  query,
  onChange,
  canPrice = false,
}: {
  rows: readonly InstanceRow[];
  /** link "unpriced" to a price form prefilled for the row's instance type */
  canPrice?: boolean;
  query: TableQuery;
  onChange: (q: TableQuery) => void;
}) {
  const visible = useMemo(() => applyTableQuery(rows, query), [rows, query]);
  const [shown, setShown] = useState(ROWS_STEP);
  return (
    <>
      <div className="panel-head">
        <Filters rows={rows} query={query} onChange={onChange} />
        <span className="spacer" />
        <span className="muted small" data-testid="instance-count" aria-live="polite">
          {visible.length} of {rows.length} instances
        </span>
      </div>
      <TableWrap label="Instances table">
        <table className="data" data-testid="instance-table">
          <caption className="sr-only">
            Instances, sorted by {query.sort} {query.dir === "asc" ? "ascending" : "descending"}
          </caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => {
                const sorted = query.sort === c.key;
                return (
                  <th
                    key={c.key}
                    className={c.numeric ? "num" : undefined}
                    aria-sort={sorted ? (query.dir === "asc" ? "ascending" : "descending") : "none"}
                    scope="col"
                  >
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => onChange(toggleSort(query, c.key))}
                      data-testid={`sort-${c.key}`}
                    >
                      {c.label}
                      <span aria-hidden="true">
                        {sorted ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {visible.slice(0, shown).map((r) => (
              <Row key={r.id} r={r} canPrice={canPrice} />
            ))}
          </tbody>
        </table>
        {visible.length === 0 ? <p className="muted">No instance matches these filters.</p> : null}
        {visible.length > shown ? (
          <div className="pager">
            <span className="muted small">
              showing {shown} of {visible.length}
            </span>
            <button
              type="button"
              onClick={() => setShown((n) => n + ROWS_STEP)}
              data-testid="instances-more"
            >
              Show {Math.min(ROWS_STEP, visible.length - shown)} more
            </button>
          </div>
        ) : null}
      </TableWrap>
    </>
  );
}
