"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { adminQueries, type AuditEntryDto, type AuditFilters } from "@/lib/queries/admin.ts";
import { LocalTime } from "../time-zone.tsx";
import { compactDetail } from "./admin-bits.ts";
import { TableWrap } from "../table-wrap.tsx";

const NO_FILTERS: AuditFilters = { action: "", actor: "" };

/** Who changed what, newest first, 50 at a time. */
export function AuditPanel() {
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const q = useInfiniteQuery(adminQueries.audit(filters));
  const entries = q.data?.pages.flatMap((p) => p.entries) ?? [];
  const filtered = filters.action.trim() !== "" || filters.actor.trim() !== "";
  return (
    <section className="panel" aria-labelledby="audit-title" data-testid="audit-panel">
      <div className="panel-head">
        <h2 id="audit-title">Audit log</h2>
        <span className="muted small">sign-ins and every change, newest first</span>
      </div>
      <form
        className="filters audit-filters"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ action: draft.action.trim(), actor: draft.actor.trim() });
        }}
      >
        <label className="field">
          Action starts with
          <input
            type="search"
            value={draft.action}
            placeholder="e.g. users."
            onChange={(e) => setDraft((d) => ({ ...d, action: e.target.value }))}
            data-testid="audit-action"
          />
        </label>
        <label className="field">
          Actor
          <input
            type="search"
            value={draft.actor}
            placeholder="email or token:name"
            onChange={(e) => setDraft((d) => ({ ...d, actor: e.target.value }))}
            data-testid="audit-actor"
          />
        </label>
        <button type="submit" data-testid="audit-filter">
          Filter
        </button>
        {filtered ? (
          <button
            type="button"
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
            }}
          >
            Clear
          </button>
        ) : null}
        <button
          type="button"
          onClick={() => void q.refetch()}
          disabled={q.isFetching}
          data-testid="audit-refresh"
        >
          Refresh
        </button>
      </form>
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      {q.isPending ? <p className="loading">Loading the audit log…</p> : null}
      {q.data ? (
        <TableWrap label="Audit log table">
          <table className="data" data-testid="audit-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Actor</th>
                <th>Action</th>
                <th>Target</th>
                <th>Details</th>
                <th>IP</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <AuditRow key={e.id} e={e} />
              ))}
            </tbody>
          </table>
          {entries.length === 0 ? (
            <p className="muted">
              {filtered ? "No entries match these filters." : "No entries yet."}
            </p>
          ) : null}
        </TableWrap>
      ) : null}
      {q.data && entries.length > 0 ? (
        <div className="audit-more">
          {q.hasNextPage ? (
            <button
              type="button"
              onClick={() => void q.fetchNextPage()}
              disabled={q.isFetchingNextPage}
              data-testid="audit-older"
            >
              {q.isFetchingNextPage ? "Loading…" : "Older"}
            </button>
          ) : (
            <span className="muted small">
              {entries.length === 1 ? "1 entry" : `${entries.length} entries`}; no older entries.
            </span>
          )}
        </div>
      ) : null}
    </section>
  );
}

function AuditRow({ e }: { e: AuditEntryDto }) {
  const detail = compactDetail(e.detail);
  return (
    <tr data-testid="audit-row" data-action={e.action}>
      <td>
        <LocalTime value={e.at} />
      </td>
      <td>{e.actor}</td>
      <td className="mono">{e.action}</td>
      <td className="wrap">{e.target || <span className="muted">—</span>}</td>
      <td className="mono audit-detail">{detail || <span className="muted">—</span>}</td>
      <td className="mono">{e.ip ?? <span className="muted">—</span>}</td>
    </tr>
  );
}
