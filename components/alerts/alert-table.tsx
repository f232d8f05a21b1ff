"use client";

import { Fragment, useState } from "react";
import { formatDateTime } from "@/lib/format/time.ts";
import type { AlertDto } from "@/lib/zod/schemas/alert.ts";
import { RULE_KIND_LABELS } from "@/lib/zod/schemas/rule.ts";
import { LocalTime, useTimeZone } from "../time-zone.tsx";
import { AlertActions, GroupActions } from "./alert-actions.tsx";
import { AlertDetail } from "./alert-detail.tsx";
import { gpuLabel, groupAlerts, type AlertGroup } from "./group-alerts.ts";

const COLUMNS = 9;

export interface Selection {
  has: (id: string) => boolean;
  /** selects (on) or clears every id given */
  set: (ids: readonly string[], on: boolean) => void;
}

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
              <Checkbox
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

function Checkbox({
  checked,
  mixed = false,
  onChange,
  label,
  testId,
}: {
  checked: boolean;
  mixed?: boolean;
  onChange: (on: boolean) => void;
  label: string;
  testId: string;
}) {
  return (
    <input
      type="checkbox"
      className="row-check"
      checked={checked}
      ref={(el) => {
        if (el) el.indeterminate = mixed;
      }}
      onChange={(e) => onChange(mixed ? true : e.target.checked)}
      aria-label={label}
      data-testid={testId}
    />
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

const shortFormats = new Map<string, Intl.DateTimeFormat>();

/** "30 Nov, 22:03" in the viewer's zone; the full time, with seconds and zone, in its title. */
function ShortTime({ value }: { value: string }) {
  const tz = useTimeZone();
  let f = shortFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      day: "2-digit",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
      timeZone: tz,
    });
    shortFormats.set(tz, f);
  }
  return (
    <time dateTime={value} title={formatDateTime(value, tz)}>
      {f.format(new Date(value))}
    </time>
  );
}

function Since({ value }: { value: string }) {
  return <ShortTime value={value} />;
}

function KindCell({ kind, idleKinds }: { kind: AlertDto["kind"]; idleKinds: string[] }) {
  const text = `${RULE_KIND_LABELS[kind]}${idleKinds.length ? ` · ${idleKinds.join(", ")}` : ""}`;
  return (
    <td>
      <span className="clip kind" title={text}>
        {RULE_KIND_LABELS[kind]}
        {idleKinds.length > 0 ? (
          <span className="muted small"> · {idleKinds.join(", ")}</span>
        ) : null}
      </span>
    </td>
  );
}

function Ended({ value }: { value: string }) {
  const tz = useTimeZone();
  return (
    <span className="muted small" title={`ended ${formatDateTime(value, tz)}`}>
      {" "}
      · ended
    </span>
  );
}

function ScopeCell({ hostname, team, project }: Pick<AlertDto, "hostname" | "team" | "project">) {
  const scope = [hostname, team, project].filter((x) => x !== null).join(" · ");
  return (
    <td>
      <span className="clip scope" title={scope || "fleet"}>
        {scope || <span className="muted">fleet</span>}
      </span>
    </td>
  );
}

function OwnerCell({ owner }: { owner: string | null }) {
  return (
    <td>
      {owner ? (
        <span className="clip owner" title={owner}>
          {owner}
        </span>
      ) : (
        <span className="muted">—</span>
      )}
    </td>
  );
}

/** "by ada": an email shows its name part; the whole address is in the title and read aloud. */
function AckedBy({ by }: { by: string }) {
  const at = by.indexOf("@");
  return (
    <span
      className="muted small clip by"
      title={`acknowledged by ${by}`}
      data-testid="alert-acked-by"
    >
      by {at > 0 ? by.slice(0, at) : by}
      {at > 0 ? <span className="sr-only">{by.slice(at)}</span> : null}
    </span>
  );
}

function SnoozedPill({ until, count }: { until: string | null; count?: number }) {
  const tz = useTimeZone();
  const title = until ? `snoozed until ${formatDateTime(until, tz)}` : "snoozed";
  return (
    <span
      className="badge snoozed"
      title={count === undefined ? title : `${count} snoozed: no notifications for them`}
      data-testid={count === undefined ? "alert-snoozed" : "alert-group-snoozed"}
    >
      {count === undefined ? "snoozed" : `${count} snoozed`}
      {until && count === undefined ? (
        <span className="sr-only">
          {" "}
          until <LocalTime value={until} />
        </span>
      ) : null}
    </span>
  );
}

/** "resolving (since 30 Nov, 22:03)": the condition cleared; it resolves if it stays clear. */
export function ResolvingPill({ since }: { since: string }) {
  return (
    <span
      className="badge resolving"
      title="the condition cleared: the alert resolves if it stays clear for the resolve hold, and still counts as firing until then"
      data-testid="alert-resolving"
    >
      resolving (since <ShortTime value={since} />)
    </span>
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
        <Checkbox
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

function stateBreakdown(g: AlertGroup): string {
  return (["firing", "acknowledged", "resolved"] as const)
    .filter((s) => g.stateCounts[s] > 0)
    .map((s) => `${g.stateCounts[s]} ${s}`)
    .join(", ");
}

function GroupRow({
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
        <Checkbox
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
