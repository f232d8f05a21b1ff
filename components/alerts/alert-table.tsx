"use client";

import { Fragment } from "react";
import type { AlertDto } from "@/lib/zod/schemas/alert.ts";
import { RULE_KIND_LABELS } from "@/lib/zod/schemas/rule.ts";
import { LocalTime } from "../time-zone.tsx";
import { AlertActions } from "./alert-actions.tsx";
import { AlertDetail } from "./alert-detail.tsx";

/** Alerts with their actions; a row expands into its history and notifications. */
export function AlertTable({
  alerts,
  expanded,
  onToggle,
}: {
  alerts: AlertDto[];
  expanded: string | null;
  onToggle: (id: string) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="data" data-testid="alerts-table">
        <thead>
          <tr>
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
          {alerts.map((a) => (
            <Fragment key={a.id}>
              <AlertRow alert={a} open={expanded === a.id} onToggle={() => onToggle(a.id)} />
              {expanded === a.id ? (
                <tr>
                  <td className="detail-cell" colSpan={8}>
                    <AlertDetail id={a.id} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AlertRow({
  alert: a,
  open,
  onToggle,
}: {
  alert: AlertDto;
  open: boolean;
  onToggle: () => void;
}) {
  const idleKind = typeof a.details.idleKind === "string" ? a.details.idleKind : "";
  const scope = [a.hostname, a.team, a.project].filter((x) => x !== null).join(" · ");
  return (
    <tr
      data-testid="alert-row"
      data-id={a.id}
      data-kind={a.kind}
      data-state={a.state}
      data-idle-kind={idleKind}
      data-snoozed={a.snoozed ? "yes" : "no"}
    >
      <td>
        <span className={`badge ${a.state}`} data-testid="alert-state">
          {a.state}
        </span>
        {a.snoozed && a.snoozedUntil ? (
          <div className="muted small" data-testid="alert-snoozed">
            snoozed until <LocalTime value={a.snoozedUntil} />
          </div>
        ) : null}
        {a.acknowledgedBy && a.state === "acknowledged" ? (
          <div className="muted small" data-testid="alert-acked-by">
            by {a.acknowledgedBy}
          </div>
        ) : null}
      </td>
      <td>
        <span className={`badge ${a.severity}`}>{a.severity}</span>
      </td>
      <td>
        {RULE_KIND_LABELS[a.kind]}
        {idleKind ? (
          <div className="muted small">{idleKind === "held" ? "held" : "empty"}</div>
        ) : null}
      </td>
      <td className="alert-summary">
        <button
          type="button"
          className="sort-button"
          aria-expanded={open}
          onClick={onToggle}
          data-testid="alert-toggle"
        >
          {open ? "▾" : "▸"}
        </button>{" "}
        {a.summary}
      </td>
      <td className="wrap">{scope || <span className="muted">fleet</span>}</td>
      <td>{a.owner ?? <span className="muted">—</span>}</td>
      <td>
        <LocalTime value={a.startsAt} />
        {a.endsAt ? (
          <div className="muted small">
            ended <LocalTime value={a.endsAt} />
          </div>
        ) : null}
      </td>
      <td>
        <AlertActions alert={a} />
      </td>
    </tr>
  );
}
