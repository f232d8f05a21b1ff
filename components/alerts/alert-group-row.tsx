"use client";

// The row of a group in the alerts table: the alerts one rule raised on one host, folded.
import { TriStateCheckbox } from "../tri-state-checkbox.tsx";
import { GroupActions } from "./alert-actions.tsx";
import { KindCell, OwnerCell, ScopeCell, Since, SnoozedPill } from "./alert-cells.tsx";
import type { Selection } from "./selection.ts";
import { gpuLabel, type AlertGroup } from "./group-alerts.ts";

function stateBreakdown(g: AlertGroup): string {
  return (["firing", "acknowledged", "resolved"] as const)
    .filter((s) => g.stateCounts[s] > 0)
    .map((s) => `${g.stateCounts[s]} ${s}`)
    .join(", ");
}

export function GroupRow({
  group: g,
  open,
  onToggle,
  selection,
}: {
  group: AlertGroup;
  open: boolean;
  onToggle: () => void;
  selection: Selection;
}) {
  const picked = g.ids.filter((id) => selection.has(id)).length;
  const gpus = gpuLabel(g.gpuIndexes);
  const where = g.hostname ?? "a host";
  // what differs between groups first, so a narrow column still shows it
  const summary = `${gpus || `${g.count} alerts`} on ${where} · ${g.ruleName}`;
  const what = `all ${g.count}: ${g.ruleName} on ${where}`;
  return (
    <tr
      className="group-row"
      data-testid="alert-group"
      data-key={g.key}
      data-count={g.count}
      data-kind={g.kind}
      data-state={g.state}
      data-severity={g.severity}
      data-host={g.hostname ?? ""}
      data-expanded={open ? "yes" : "no"}
    >
      <td className="select-cell">
        <TriStateCheckbox
          checked={picked === g.count}
          mixed={picked > 0 && picked < g.count}
          onChange={(on) => selection.set(g.ids, on)}
          label={`Select ${what}`}
          testId="alert-group-select"
        />
      </td>
      <td>
        <span className="cell-line" title={stateBreakdown(g)}>
          <span className={`badge ${g.state}`} data-testid="alert-group-state">
            {g.state}
          </span>
          {g.stateCounts[g.state] < g.count ? (
            <span className="muted small">
              {g.stateCounts[g.state]} of {g.count}
            </span>
          ) : null}
          {g.snoozedCount > 0 ? <SnoozedPill until={null} count={g.snoozedCount} /> : null}
        </span>
      </td>
      <td>
        <span className={`badge ${g.severity}`}>{g.severity}</span>
      </td>
      <KindCell kind={g.kind} idleKinds={g.idleKinds} />
      <td className="alert-summary">
        <span className="cell-line">
          <button
            type="button"
            className="sort-button"
            aria-expanded={open}
            aria-label={open ? `Hide the ${g.count} alerts` : `Show the ${g.count} alerts`}
            onClick={onToggle}
            data-testid="alert-group-toggle"
          >
            {open ? "▾" : "▸"}
          </button>
          <span className="count-pill" data-testid="alert-group-count" title={stateBreakdown(g)}>
            {g.count}
          </span>
          <span className="clip text" title={summary}>
            {summary}
          </span>
        </span>
      </td>
      <ScopeCell hostname={g.hostname} team={g.team} project={g.project} />
      <OwnerCell owner={g.owner} />
      <td>
        <Since value={g.startsAt} />
      </td>
      <td>
        <GroupActions alerts={g.alerts} what={what} />
      </td>
    </tr>
  );
}
