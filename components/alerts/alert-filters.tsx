"use client";

import { useId } from "react";
import type { AlertFilters } from "@/lib/queries/alerts.ts";
import { ALERT_FILTER_STATES, type AlertList } from "@/lib/zod/schemas/alert.ts";
import { RULE_KIND_LABELS, RULE_KINDS, type RuleKind } from "@/lib/zod/schemas/rule.ts";

export const STATE_LABELS: Record<(typeof ALERT_FILTER_STATES)[number], string> = {
  open: "Open",
  firing: "Firing",
  acknowledged: "Acknowledged",
  snoozed: "Snoozed",
  resolved: "Resolved",
  all: "All",
};

/** State, kind and scope (team, project, host) filters; the values live in the URL. */
export function Filters({
  filters,
  data,
  onChange,
}: {
  filters: AlertFilters;
  data: AlertList | undefined;
  onChange: (f: AlertFilters) => void;
}) {
  const name = useId();
  const set = (patch: Partial<AlertFilters>) => onChange({ ...filters, ...patch });
  const facets = data?.facets ?? { teams: [], projects: [], hosts: [] };
  return (
    <div className="filters" role="search" aria-label="Filter alerts">
      <fieldset className="segmented" data-testid="filter-state">
        <legend>State</legend>
        {ALERT_FILTER_STATES.map((s) => (
          <label key={s}>
            <input
              type="radio"
              name={name}
              value={s}
              checked={filters.state === s}
              onChange={() => set({ state: s })}
              data-testid={`filter-state-${s}`}
            />
            {STATE_LABELS[s]}
          </label>
        ))}
      </fieldset>
      <label className="field">
        Kind
        <select
          value={filters.kind ?? ""}
          onChange={(e) => set({ kind: (e.target.value || undefined) as RuleKind | undefined })}
          data-testid="filter-kind"
        >
          <option value="">All kinds</option>
          {RULE_KINDS.map((k) => (
            <option key={k} value={k}>
              {RULE_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <FacetSelect
        label="Team"
        value={filters.team}
        values={facets.teams}
        onChange={(team) => set({ team })}
        testId="filter-team"
      />
      <FacetSelect
        label="Project"
        value={filters.project}
        values={facets.projects}
        onChange={(project) => set({ project })}
        testId="filter-project"
      />
      <label className="field">
        Host
        <select
          value={filters.hostId ?? ""}
          onChange={(e) => set({ hostId: e.target.value || undefined })}
          data-testid="filter-host"
        >
          <option value="">All hosts</option>
          {facets.hosts.map((h) => (
            <option key={h.id} value={h.id}>
              {h.hostname}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function FacetSelect({
  label,
  value,
  values,
  onChange,
  testId,
}: {
  label: string;
  value: string | undefined;
  values: string[];
  onChange: (v: string | undefined) => void;
  testId: string;
}) {
  const all = value && !values.includes(value) ? [...values, value] : values;
  return (
    <label className="field">
      {label}
      <select
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
        data-testid={testId}
      >
        <option value="">All</option>
        {all.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}
