"use client";

import Link from "next/link";
import { useState } from "react";
import { instanceHref } from "@/lib/fleet/instance-href.ts";
import { formatBytesOf, formatInteger, formatRatio } from "@/lib/format/number.ts";
import type { FleetGpu, FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import {
  ATTENTION_PREVIEW,
  ATTENTION_REASONS,
  type AttentionReason,
} from "@/lib/zod/schemas/fleet-values.ts";
import { TableWrap } from "../table-wrap.tsx";
import type { AttentionPageState } from "./fleet-live.tsx";
import { LazyAttentionPage } from "./fleet-lazy.tsx";
import { STATUS_LABELS } from "./util-scale.ts";

// The GPUs that need attention, most urgent first: the summary carries the first page, later
// pages come from /api/fleet/gpus?by=attention one at a time (fetched by a part loaded on the
// first "Next", fleet-lazy.tsx).

export const REASON_LABELS: Record<AttentionReason, string> = {
  interrupted: "spot reclaim",
  unhealthy: "running hot",
  not_reporting: "not reporting",
  idle: "idle",
};

function why(g: FleetGpu): string {
  if (g.reason === "idle") return STATUS_LABELS[g.status];
  return g.reason === null ? "" : REASON_LABELS[g.reason];
}

function Rows({ gpus }: { gpus: readonly FleetGpu[] }) {
  return (
    <tbody>
      {gpus.map((g) => (
        <tr key={g.uuid} data-testid="attention-row" data-reason={g.reason ?? ""}>
          <td>
            <Link href={instanceHref(g.hostname)}>{g.hostname}</Link>
          </td>
          <td className="num">{g.index}</td>
          <td>{g.name}</td>
          <td>
            <span className={`reason reason-${g.reason ?? "none"}`}>{why(g)}</span>
          </td>
          <td className="num">{formatRatio(g.util)}</td>
          <td className="num">{formatBytesOf(g.memUsedBytes, g.memTotalBytes)}</td>
        </tr>
      ))}
    </tbody>
  );
}

export function AttentionList({ attention }: { attention: FleetSummary["attention"] }) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(attention.total / ATTENTION_PREVIEW));
  const current = Math.min(page, pages);
  // page 1 is in the summary; later pages are fetched only when asked for
  const [later, setLater] = useState<AttentionPageState>({ gpus: [], error: null });
  const gpus = current === 1 ? attention.gpus : later.gpus;
  const from = (current - 1) * ATTENTION_PREVIEW + 1;
  const to = Math.min(attention.total, current * ATTENTION_PREVIEW);
  return (
    <section className="panel" aria-labelledby="attention-title" data-testid="attention">
      <div className="panel-head">
        <h2 id="attention-title">Needs attention</h2>
        <ul className="reason-counts" aria-label="GPUs needing attention by reason">
          {ATTENTION_REASONS.map((r) => (
            <li key={r} data-testid={`attention-${r}`} data-count={attention.byReason[r]}>
              <span className={`reason reason-${r}`}>{REASON_LABELS[r]}</span>{" "}
              {formatInteger(attention.byReason[r])}
            </li>
          ))}
        </ul>
      </div>
      {attention.total === 0 ? (
        <p className="muted" data-testid="attention-none">
          Every GPU is reporting, busy and cool.
        </p>
      ) : (
        <>
          {current > 1 ? <LazyAttentionPage page={current} onChange={setLater} /> : null}
          <TableWrap label="GPUs needing attention">
            <table className="data" data-testid="attention-table">
              <caption className="sr-only">
                GPUs needing attention, most urgent first: spot reclaims, running hot, not
                reporting, then idle
              </caption>
              <thead>
                <tr>
                  <th scope="col">Host</th>
                  <th scope="col" className="num">
                    GPU
                  </th>
                  <th scope="col">Model</th>
                  <th scope="col">Why</th>
                  <th scope="col" className="num">
                    SM
                  </th>
                  <th scope="col" className="num">
                    Memory
                  </th>
                </tr>
              </thead>
              <Rows gpus={gpus} />
            </table>
          </TableWrap>
          <div className="pager">
            <span className="muted small" data-testid="attention-range" aria-live="polite">
              {later.error !== null && current > 1
                ? `Could not load: ${later.error}`
                : `${formatInteger(from)}–${formatInteger(to)} of ${formatInteger(attention.total)}`}
            </span>
            {pages > 1 ? (
              <>
                <button
                  type="button"
                  disabled={current <= 1}
                  onClick={() => setPage(current - 1)}
                  data-testid="attention-prev"
                >
                  Previous
                </button>
                <button
                  type="button"
                  disabled={current >= pages}
                  onClick={() => setPage(current + 1)}
                  data-testid="attention-next"
                >
                  Next
                </button>
              </>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
