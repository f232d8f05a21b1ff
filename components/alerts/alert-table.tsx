"use client";

import { Fragment, useState } from "react";
import type { AlertDto } from "@/lib/zod/schemas/alert.ts";
import { TriStateCheckbox } from "../tri-state-checkbox.tsx";
import {
  AckedBy,
  Ended,
  KindCell,
  OwnerCell,
  ResolvingPill,
  ScopeCell,
  Since,
  SnoozedPill,
} from "./alert-cells.tsx";
import { AlertActions } from "./alert-actions.tsx";
import { AlertDetail } from "./alert-detail.tsx";
import { GroupRow } from "./alert-group-row.tsx";
import { groupAlerts } from "./group-alerts.ts";
import type { Selection } from "./selection.ts";

const COLUMNS = 9;

/**
 * Alerts with their actions, one line each. The alerts one rule raised on one host fold into a
 * group row (count, worst state, earliest start) that expands into its alerts; an alert expands
 * into its history and notifications. Checkboxes select alerts for the bulk actions above.
 */
export function AlertTable({
  alerts,
  expanded,
  onToggle,
  selection,
}: {
  alerts: AlertDto[];
  expanded: string | null;
  onToggle: (id: string) => void;
  selection: Selection;
}) {
  const groups = groupAlerts(alerts);
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(new Set());
  const allIds = alerts.map((a) => a.id);
  const picked = allIds.filter((id) => selection.has(id)).length;
  return (
    <div className="table-wrap">
      <table className="data alert-table" data-testid="alerts-table">
        <thead>
          <tr>
            <th className="select-cell">
              <TriStateCheckbox
                checked={picked > 0 && picked === allIds.length}
                mixed={picked > 0 && picked < allIds.length}
                onChange={(on) => selection.set(allIds, on)}
                label="Select every alert shown"
                testId="alert-select-all"
              />
            </th>
            <th>State</th>
            <th>Severity</th>
            <th>Kind</th>
            <th>Alert</th>
            <th>Scope</th>
            <th>Owner</th>
            <th>Since</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => {
            if (g.count === 1) {
              const a = g.alerts[0] as AlertDto;
              return (
                <AlertRows
                  key={g.key}
                  alert={a}
                  expanded={expanded}
                  onToggle={onToggle}
                  selection={selection}
                />
              );
            }
            // a link to one of its alerts (?alert=) opens the group too
            const holdsExpanded = expanded !== null && g.ids.includes(expanded);
            const open = openGroups.has(g.key) || holdsExpanded;
            const toggleGroup = () => {
              const next = new Set(openGroups);
              if (open) {
                next.delete(g.key);
                if (holdsExpanded && expanded) onToggle(expanded);
              } else next.add(g.key);
              setOpenGroups(next);
            };
            return (
              <Fragment key={g.key}>
                <GroupRow group={g} open={open} onToggle={toggleGroup} selection={selection} />
                {open
                  ? g.alerts.map((a) => (
                      <AlertRows
                        key={a.id}
                        alert={a}
                        expanded={expanded}
                        onToggle={onToggle}
                        selection={selection}
                        group={g.key}
                      />
                    ))
                  : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function AlertRows({
  alert: a,
  expanded,
  onToggle,
  selection,
  group,
}: {
  alert: AlertDto;
  expanded: string | null;
  onToggle: (id: string) => void;
  selection: Selection;
  group?: string;
}) {
  const open = expanded === a.id;
  return (
    <>
      <AlertRow
        alert={a}
        open={open}
        onToggle={() => onToggle(a.id)}
        selection={selection}
        group={group}
      />
      {open ? (
        <tr className={group ? "member" : undefined}>
          <td className="detail-cell" colSpan={COLUMNS}>
            <AlertDetail id={a.id} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function AlertRow({
  alert: a,
  open,
  onToggle,
  selection,
  group,
}: {
  alert: AlertDto;
  open: boolean;
  onToggle: () => void;
  selection: Selection;
  group?: string;
}) {
  const idleKind = typeof a.details.idleKind === "string" ? a.details.idleKind : "";
  return (
    <tr
      className={group ? "member" : undefined}
      data-testid="alert-row"
      data-id={a.id}
      data-kind={a.kind}
      data-state={a.state}
      data-resolving={a.clearSince ? "yes" : "no"}
      data-idle-kind={idleKind}
      data-snoozed={a.snoozed ? "yes" : "no"}
      data-group={group}
    >
      <td className="select-cell">
        <TriStateCheckbox
          checked={selection.has(a.id)}
          onChange={(on) => selection.set([a.id], on)}
          label={`Select: ${a.summary}`}
          testId="alert-select"
        />
      </td>
      <td>
        <span className="cell-line">
          {a.clearSince && a.state === "firing" ? null : (
            <span className={`badge ${a.state}`} data-testid="alert-state">
              {a.state}
            </span>
          )}
          {a.clearSince ? <ResolvingPill since={a.clearSince} /> : null}
          {a.acknowledgedBy && a.state === "acknowledged" ? (
            <AckedBy by={a.acknowledgedBy} />
          ) : null}
          {a.snoozed && a.snoozedUntil ? <SnoozedPill until={a.snoozedUntil} /> : null}
        </span>
      </td>
      <td>
        <span className={`badge ${a.severity}`}>{a.severity}</span>
      </td>
      <KindCell
        kind={a.kind}
        idleKinds={idleKind ? [idleKind === "held" ? "held" : "empty"] : []}
      />
      <td className="alert-summary">
        <span className="cell-line">
          <button
            type="button"
            className="sort-button"
            aria-expanded={open}
            aria-label={open ? "Hide history" : "Show history"}
            onClick={onToggle}
            data-testid="alert-toggle"
          >
            {open ? "▾" : "▸"}
          </button>
          <span className="clip text" title={a.summary}>
            {a.summary}
          </span>
        </span>
      </td>
      <ScopeCell hostname={a.hostname} team={a.team} project={a.project} />
      <OwnerCell owner={a.owner} />
      <td>
        <Since value={a.startsAt} />
        {a.endsAt ? <Ended value={a.endsAt} /> : null}
      </td>
      <td>
        <AlertActions alert={a} />
      </td>
    </tr>
  );
}
