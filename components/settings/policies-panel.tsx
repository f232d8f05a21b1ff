"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { formatDateTime } from "@/lib/format/time.ts";
import { policyQueries } from "@/lib/queries/policies.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { policySchema, type PlannedActionDto, type PolicyDto } from "@/lib/zod/schemas/policy.ts";
import { TableWrap } from "../table-wrap.tsx";
import { PolicyForm } from "./policy-form.tsx";
import { policyRuleText } from "./policy-rule-text.ts";
import { ScaleSignals } from "./scale-signals.tsx";

// Policies that act (issue 25: idle release, maximum run time, scale): admins add them (always in
// dry run), switch them active, and see what each would do, to which host or pool, when, and the
// $ it would save.

const UTC = "UTC";

export function PoliciesPanel({ canWrite }: { canWrite: boolean }) {
  const q = useQuery(policyQueries.list());
  const client = useQueryClient();
  const [editing, setEditing] = useState<PolicyDto | "new" | null>(null);
  const change = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Record<string, unknown> | null }) =>
      body === null
        ? sendJson("DELETE", `/api/policies/${encodeURIComponent(id)}`, undefined, null)
        : sendJson("PATCH", `/api/policies/${encodeURIComponent(id)}`, body, policySchema),
    onSettled: () => client.invalidateQueries({ queryKey: policyQueries.all() }),
  });
  return (
    <section className="panel" aria-labelledby="policies-title" data-testid="policies-panel">
      <div className="panel-head">
        <h2 id="policies-title">Policies that act</h2>
        <span className="muted small">
          every GPU of a host idle for N hours, or a host running for N hours → warn its holders and
          owner, then stop it; a host labelled with the opt-out label is never touched; new policies
          start in dry run
        </span>
        <span className="spacer" />
        {canWrite ? (
          <button type="button" onClick={() => setEditing("new")} data-testid="policy-new">
            Add policy
          </button>
        ) : null}
      </div>
      {editing === "new" ? <PolicyForm policy={null} onDone={() => setEditing(null)} /> : null}
      {editing && editing !== "new" ? (
        <PolicyForm policy={editing} onDone={() => setEditing(null)} />
      ) : null}
      {q.error ? <p className="field-error">{q.error.message}</p> : null}
      {q.data ? (
        <TableWrap label="Policies that act">
          <table className="data" data-testid="policies-table">
            <thead>
              <tr>
                <th>Policy</th>
                <th>Scope</th>
                <th>Rule</th>
                <th>Executor</th>
                <th>Mode</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.policies.map((p) => (
                <tr key={p.id} data-testid="policy-row" data-name={p.name} data-mode={p.mode}>
                  <td>{p.name}</td>
                  <td>{p.scopeKind === "fleet" ? "fleet" : `${p.scopeKind} ${p.scopeValue}`}</td>
                  <td>{policyRuleText(p)}</td>
                  <td>{p.executor}</td>
                  <td>
                    <span className={`badge ${p.mode === "active" ? "warning" : ""}`}>
                      {p.mode === "active" ? "active" : "dry run"}
                    </span>
                  </td>
                  <td>
                    {canWrite ? (
                      <span className="actions">
                        <button
                          type="button"
                          data-testid="policy-mode"
                          onClick={() =>
                            change.mutate({
                              id: p.id,
                              body: { mode: p.mode === "active" ? "dry_run" : "active" },
                            })
                          }
                        >
                          {p.mode === "active" ? "Back to dry run" : "Make active"}
                        </button>
                        <button type="button" onClick={() => setEditing(p)}>
                          Edit
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => change.mutate({ id: p.id, body: null })}
                        >
                          Delete
                        </button>
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data.policies.length === 0 ? <p className="muted">No policies yet.</p> : null}
        </TableWrap>
      ) : null}
      {change.error ? <p className="field-error">{change.error.message}</p> : null}
      <PlannedActions />
      <ScaleSignals />
    </section>
  );
}

function PlannedActions() {
  const q = useQuery(policyQueries.actions());
  const rows: PlannedActionDto[] = q.data?.actions ?? [];
  return (
    <>
      <h3>What the policies would do</h3>
      {q.error ? <p className="field-error">{q.error.message}</p> : null}
      <TableWrap label="What the policies would do">
        <table className="data" data-testid="policy-actions">
          <thead>
            <tr>
              <th>Host</th>
              <th>Policy</th>
              <th>Action</th>
              <th>Since (UTC)</th>
              <th>Acts at (UTC)</th>
              <th>Warnings</th>
              <th className="num">Saves / month</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr
                key={`${a.policyId}:${a.hostId}:${a.run ? `${a.run.kind}:${a.run.namespace ?? ""}/${a.run.ref}` : ""}`}
                data-testid="policy-action-row"
              >
                <td>{a.run ? `${a.run.label} on ${a.hostname}` : a.hostname}</td>
                <td>
                  {a.policyName} <span className="muted small">({a.mode.replace("_", " ")})</span>
                </td>
                <td>
                  {a.action === "resize"
                    ? `resize to ${a.resizeTo ?? "?"} (accepted recommendation)`
                    : `${a.mode === "dry_run" ? "would " : ""}${a.action.replace("_", " ")}`}
                  {a.state !== "open" ? <span className="muted small"> · {a.state}</span> : null}
                </td>
                <td>
                  <span className="muted small">
                    {a.kind === "max_runtime" ? "running" : "idle"}{" "}
                  </span>
                  {formatDateTime(a.idleSince, UTC)}
                </td>
                <td>
                  {formatDateTime(a.actAt, UTC)}
                  {a.keepUntil ? (
                    <div className="muted small">kept until {formatDateTime(a.keepUntil, UTC)}</div>
                  ) : null}
                </td>
                <td>{a.warningsSent}</td>
                <td className="num" data-testid="policy-action-saving">
                  {a.monthlySavingMicros === null ? "unpriced" : formatMoney(a.monthlySavingMicros)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {q.data && rows.length === 0 ? (
          <p className="muted">No policy has a host to act on right now.</p>
        ) : null}
      </TableWrap>
    </>
  );
}
