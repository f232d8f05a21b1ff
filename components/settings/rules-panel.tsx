"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { settingsQueries } from "@/lib/queries/settings.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { RULE_KIND_LABELS, ruleSchema, type RuleDto } from "@/lib/zod/schemas/rule.ts";
import { RuleForm } from "./rule-form.tsx";

function paramsText(r: RuleDto): string {
  const p = r.params;
  const pct = (v: unknown) => (typeof v === "number" ? `${Math.round(v * 1000) / 10} %` : "?");
  switch (r.kind) {
    case "idle":
      return `under ${pct(p.utilThreshold)} SM for ${String(p.durationMinutes)} min; held above ${pct(p.heldMemRatio)} memory; ${String(p.notify).replaceAll("_", " ")}`;
    case "budget":
      return `thresholds of each budget, on ${Array.isArray(p.basis) ? p.basis.join(" and ") : "?"}`;
    case "exporter_down":
    case "gpu_missing":
      return `silent for more than ${String(p.missedIntervals)} collection intervals`;
    case "ecc":
      return `≥ ${String(p.minIncrease)} new uncorrected error(s) in ${String(p.windowMinutes)} min`;
    case "temperature":
      return `above ${String(p.limitCelsius)} °C over ${String(p.durationMinutes)} min`;
    case "throttle":
      return `${Array.isArray(p.classes) ? p.classes.join(" or ") : "?"} throttling ≥ ${pct(p.minRatio)} of ${String(p.durationMinutes)} min`;
    case "spot_interruption":
      return "while the provider's reclaim notice is pending";
    case "metrics_backend_down":
      return `the metrics backend (Prometheus) unreachable for more than ${String(p.missedIntervals)} collection intervals`;
  }
}

export function RulesPanel() {
  const q = useQuery(settingsQueries.rules());
  const client = useQueryClient();
  const [editing, setEditing] = useState<RuleDto | "new" | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const patch = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Record<string, unknown> }) =>
      sendJson("PATCH", `/api/rules/${encodeURIComponent(id)}`, body, ruleSchema),
    onSettled: () => client.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/rules/${encodeURIComponent(id)}`, undefined, null),
    onSettled: () => client.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
  return (
    <section className="panel" aria-labelledby="rules-title" data-testid="rules-panel">
      <div className="panel-head">
        <h2 id="rules-title">Alert rules</h2>
        <span className="muted small">evaluated by the collector after every scrape</span>
        <span className="spacer" />
        <button type="button" onClick={() => setEditing("new")} data-testid="rule-new">
          Add rule
        </button>
      </div>
      {editing === "new" ? <RuleForm rule={null} onDone={() => setEditing(null)} /> : null}
      {q.error ? <p className="field-error">{q.error.message}</p> : null}
      {q.data ? (
        <div className="table-wrap">
          <table className="data" data-testid="rules-table">
            <thead>
              <tr>
                <th>Rule</th>
                <th>Kind</th>
                <th>Scope</th>
                <th>Condition</th>
                <th className="num">Cool-down</th>
                <th className="num">Open alerts</th>
                <th>Enabled</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.rules.map((r) =>
                editing !== "new" && editing?.id === r.id ? (
                  <tr key={r.id}>
                    <td colSpan={8} className="detail-cell">
                      <RuleForm rule={r} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={r.id} data-testid="rule-row" data-kind={r.kind} data-id={r.id}>
                    <td>{r.name}</td>
                    <td>{RULE_KIND_LABELS[r.kind]}</td>
                    <td>
                      {r.scopeKind === "fleet" ? "fleet" : `${r.scopeKind} ${r.scopeValue}`}
                      {Object.keys(r.excludeLabels).length > 0 ? (
                        <div className="muted small">
                          except{" "}
                          {Object.entries(r.excludeLabels)
                            .map(([k, v]) => `${k}=${v}`)
                            .join(", ")}
                        </div>
                      ) : null}
                    </td>
                    <td className="wrap">{paramsText(r)}</td>
                    <td className="num">{r.cooldownMinutes} min</td>
                    <td className="num">{r.openAlerts}</td>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Rule ${r.name} enabled`}
                        checked={r.enabled}
                        disabled={patch.isPending}
                        onChange={(e) =>
                          patch.mutate({ id: r.id, body: { enabled: e.target.checked } })
                        }
                        data-testid="rule-toggle"
                      />
                    </td>
                    <td>
                      <span className="actions">
                        <button type="button" onClick={() => setEditing(r)} data-testid="rule-edit">
                          Edit
                        </button>
                        {deleting === r.id ? (
                          <button
                            type="button"
                            className="danger"
                            onClick={() => remove.mutate(r.id)}
                            data-testid="rule-delete-confirm"
                          >
                            Delete, with its alerts
                          </button>
                        ) : (
                          <button
                            type="button"
                            className="danger"
                            onClick={() => setDeleting(r.id)}
                            data-testid="rule-delete"
                          >
                            Delete
                          </button>
                        )}
                      </span>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      ) : null}
      {patch.error || remove.error ? (
        <p className="field-error" role="alert">
          {(patch.error ?? remove.error)?.message}
        </p>
      ) : null}
    </section>
  );
}
