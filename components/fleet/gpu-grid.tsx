"use client";

import Link from "next/link";
import { memo, useMemo } from "react";
import { groupByHost, type HostGroup } from "@/lib/fleet/grid.ts";
import { formatBytesOf, formatRatio } from "@/lib/format/number.ts";
import type { GridGpu } from "@/lib/zod/schemas/fleet.ts";
import { cellFill, STATUS_LABELS } from "./util-scale.ts";
import { instanceHref } from "@/lib/fleet/instance-href.ts";

// Plain DOM cells (no per-cell chart), grouped by host; memoized per host so a poll that changes
// a few GPUs re-renders only those hosts. Readable and cheap at 1,000 GPUs.

/** A cell's GPU: the grid's, and who holds it now where the page says (/api/fleet/gpus). */
export type CellGpu = GridGpu & { holders?: readonly string[] };

/** The first holders by name, then how many more: a tooltip stays one line. */
const HOLDERS_SHOWN = 3;

function heldBy(holders: readonly string[]): string {
  const shown = holders.slice(0, HOLDERS_SHOWN).join(", ");
  const more = holders.length - HOLDERS_SHOWN;
  return `held by ${shown}${more > 0 ? ` and ${more} more` : ""}`;
}

export function describe(g: CellGpu): string {
  const parts = [`${g.hostname} GPU ${g.index}`, g.name, STATUS_LABELS[g.status]];
  if (g.util !== null) parts.push(`SM ${formatRatio(g.util)}`);
  if (g.memUsedBytes !== null || g.memTotalBytes !== null) {
    parts.push(`memory ${formatBytesOf(g.memUsedBytes, g.memTotalBytes)}`);
  }
  if (g.processes !== null) parts.push(`${g.processes} process${g.processes === 1 ? "" : "es"}`);
  if (g.migSlices > 0) parts.push(`${g.migSlices} MIG instances`);
  if (g.holders && g.holders.length > 0) parts.push(heldBy(g.holders));
  return parts.join(" · ");
}

const Cell = memo(function Cell({ gpu }: { gpu: CellGpu }) {
  const label = describe(gpu);
  return (
    <span
      className={`cell ${gpu.status}`}
      style={{ background: cellFill(gpu.status, gpu.util) }}
      role="img"
      aria-label={label}
      title={label}
      data-testid="gpu-cell"
      data-status={gpu.status}
    />
  );
});

const Host = memo(function Host({ group }: { group: HostGroup<CellGpu> }) {
  const columns = Math.min(8, Math.max(1, group.gpus.length));
  return (
    <li className="grid-host" data-testid="grid-host">
      <Link className="grid-host-name" href={instanceHref(group.hostname)} title={group.hostname}>
        {group.hostname}
      </Link>
      <div className="grid-cells" style={{ gridTemplateColumns: `repeat(${columns}, 14px)` }}>
        {group.gpus.map((g) => (
          <Cell key={g.uuid} gpu={g} />
        ))}
      </div>
    </li>
  );
}, sameGroup);

const sameHolders = (a: CellGpu, b: CellGpu) =>
  (a.holders ?? []).join("\n") === (b.holders ?? []).join("\n");

function sameGroup(a: { group: HostGroup<CellGpu> }, b: { group: HostGroup<CellGpu> }): boolean {
  if (a.group.hostname !== b.group.hostname || a.group.gpus.length !== b.group.gpus.length) {
    return false;
  }
  return a.group.gpus.every((g, i) => {
    const o = b.group.gpus[i];
    return (
      o !== undefined &&
      o.uuid === g.uuid &&
      o.status === g.status &&
      o.util === g.util &&
      o.memUsedBytes === g.memUsedBytes &&
      o.processes === g.processes &&
      sameHolders(o, g)
    );
  });
}

export function GpuGrid({ grid }: { grid: readonly CellGpu[] }) {
  const groups = useMemo(() => groupByHost(grid), [grid]);
  if (grid.length === 0) {
    return <p className="muted">No GPUs reported yet.</p>;
  }
  return (
    <ul className="gpu-grid" data-testid="gpu-grid" aria-label={`${grid.length} GPUs by host`}>
      {groups.map((g) => (
        <Host key={g.hostId} group={g} />
      ))}
    </ul>
  );
}
