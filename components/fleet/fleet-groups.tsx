"use client";

import { memo, useCallback, useState } from "react";
import { formatInteger, formatRatio } from "@/lib/format/number.ts";
import type { FleetGroup, FleetSummary } from "@/lib/zod/schemas/fleet.ts";
import { GPU_STATUSES, GROUP_BYS, type GroupBy } from "@/lib/zod/schemas/fleet-values.ts";
import { LazyGroupCells } from "./fleet-lazy.tsx";
import { STATUS_LABELS } from "./util-scale.ts";

// The fleet by team, provider, GPU model or state: one row per group with its counts and a status
// bar, collapsed. Expanding a group fetches its GPUs a page at a time (/api/fleet/gpus, in
// group-cells.tsx, loaded on the first opening), so the page draws cells only for the groups
// someone opened, at any fleet size.

export const GROUP_LABELS: Record<GroupBy, string> = {
  team: "Team",
  provider: "Provider",
  model: "GPU model",
  state: "State",
};

function groupLabel(by: GroupBy, key: string): string {
  return by === "state" && key in STATUS_LABELS
    ? STATUS_LABELS[key as keyof typeof STATUS_LABELS]
    : key;
}

function statusText(g: FleetGroup): string {
  return GPU_STATUSES.filter((s) => g.statuses[s] > 0)
    .map((s) => `${formatInteger(g.statuses[s])} ${STATUS_LABELS[s]}`)
    .join(", ");
}

function StatusBar({ g }: { g: FleetGroup }) {
  return (
    <span className="status-bar" aria-hidden="true">
      {GPU_STATUSES.filter((s) => g.statuses[s] > 0).map((s) => (
        <span key={s} className={`seg ${s}`} style={{ flexGrow: g.statuses[s] }} />
      ))}
    </span>
  );
}

const GroupRow = memo(function GroupRow({
  by,
  g,
  open,
  onToggle,
}: {
  by: GroupBy;
  g: FleetGroup;
  open: boolean;
  onToggle: (key: string) => void;
}) {
  const id = `group-${by}-${g.key}`.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <li className="fleet-group" data-testid="fleet-group" data-key={g.key} data-gpus={g.gpus}>
      <button
        type="button"
        className="group-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => onToggle(g.key)}
        data-testid="group-toggle"
      >
        <span className="group-name">{groupLabel(by, g.key)}</span>
        <span className="group-counts">
          {formatInteger(g.gpus)} GPUs · {formatInteger(g.hosts)} hosts · SM{" "}
          {formatRatio(g.utilMean)}
          {g.attention > 0 ? ` · ${formatInteger(g.attention)} need attention` : ""}
        </span>
        <StatusBar g={g} />
        <span className="sr-only">{statusText(g)}</span>
      </button>
      {open ? (
        <div id={id} className="group-cells">
          <LazyGroupCells by={by} groupKey={g.key} total={g.gpus} />
        </div>
      ) : null}
    </li>
  );
});

export function FleetGroups({
  groups,
  by,
  onBy,
}: {
  groups: FleetSummary["groups"];
  by: GroupBy;
  onBy: (by: GroupBy) => void;
}) {
  // which groups are open, per grouping (switching back keeps what was open)
  const [open, setOpen] = useState<Record<GroupBy, ReadonlySet<string>>>(
    () => Object.fromEntries(GROUP_BYS.map((b) => [b, new Set<string>()])) as never,
  );
  const toggle = useCallback(
    (key: string) =>
      setOpen((o) => {
        const next = new Set(o[by]);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return { ...o, [by]: next };
      }),
    [by],
  );
  const list = groups[by];
  return (
    <>
      <div className="group-by" role="group" aria-label="Group GPUs by">
        {GROUP_BYS.map((b) => (
          <button
            key={b}
            type="button"
            aria-pressed={b === by}
            onClick={() => onBy(b)}
            data-testid={`group-by-${b}`}
          >
            {GROUP_LABELS[b]}
          </button>
        ))}
      </div>
      {list.length === 0 ? (
        <p className="muted">No GPUs reported yet.</p>
      ) : (
        <ul className="fleet-groups" data-testid="fleet-groups" data-by={by}>
          {list.map((g) => (
            <GroupRow key={g.key} by={by} g={g} open={open[by].has(g.key)} onToggle={toggle} />
          ))}
        </ul>
      )}
    </>
  );
}
