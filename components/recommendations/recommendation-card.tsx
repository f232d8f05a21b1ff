"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { recommendationQueries } from "@/lib/queries/recommendations.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  dismissInputSchema,
  RECOMMENDATION_KIND_LABELS,
  recommendationSchema,
  type RecommendationDto,
} from "@/lib/zod/schemas/recommendation.ts";
import { LazyChartLineRecommendationEvidence } from "../charts/lazy-charts.tsx";
import { LocalTime } from "../time-zone.tsx";
import { ReleasePanel } from "./release-panel.tsx";

type Act =
  | { path: "accept" | "reopen"; body: Record<string, never> }
  | { path: "dismiss"; body: { reason: string } }
  | { path: "snooze"; body: { days: number } };

/** One recommendation: what, why (evidence), how much, and the accept / dismiss / snooze buttons. */
export function RecommendationCard({ r }: { r: RecommendationDto }) {
  const client = useQueryClient();
  const [evidence, setEvidence] = useState(false);
  const [dismissing, setDismissing] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const act = useMutation({
    mutationFn: (a: Act) =>
      sendJson(
        "POST",
        `/api/recommendations/${encodeURIComponent(r.id)}/${a.path}`,
        a.body,
        recommendationSchema,
      ),
    onSuccess: () => {
      setDismissing(false);
      setReason("");
    },
    onSettled: () => client.invalidateQueries({ queryKey: recommendationQueries.all() }),
  });
  const dismiss = () => {
    // The same schema the API validates with: the form shows its message before any request.
    const parsed = dismissInputSchema.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? "invalid reason");
      return;
    }
    setReasonError(null);
    act.mutate({ path: "dismiss", body: parsed.data });
  };
  const open = r.state === "open";
  const ev = r.evidence;
  return (
    <li
      className="reco"
      data-testid="reco-row"
      data-id={r.id}
      data-kind={r.kind}
      data-state={r.state}
    >
      <div>
        <h3>
          <span className="badge">{RECOMMENDATION_KIND_LABELS[r.kind]}</span> {r.title}
        </h3>
        <div className="muted small">
          {r.hostname} · team {r.team} · project {r.project}
          {r.owner ? ` · owner ${r.owner}` : ""}
        </div>
      </div>
      <div className="saving" data-testid="reco-saving" data-micros={r.monthlySavingMicros}>
        {formatMoney(r.monthlySavingMicros)}
        <div className="muted small">per month</div>
      </div>
      <p className="wide">{r.details}</p>
      {ev.current && ev.proposed ? (
        <p className="wide small">
          {ev.current.instanceType} {ev.current.pricingModel.replace("_", "-")}{" "}
          {formatMoney(ev.current.usdPerHourMicros, "USD", 4)}/h → {ev.proposed.instanceType}{" "}
          {ev.proposed.pricingModel.replace("_", "-")}{" "}
          {formatMoney(ev.proposed.usdPerHourMicros, "USD", 4)}/h · saves{" "}
          {formatMoney(ev.hourlySavingMicros, "USD", 4)}/h × 730 h
        </p>
      ) : (
        <p className="wide small">saves {formatMoney(ev.hourlySavingMicros, "USD", 4)}/h × 730 h</p>
      )}
      <div className="wide actions">
        <button
          type="button"
          aria-expanded={evidence}
          onClick={() => setEvidence(!evidence)}
          data-testid="reco-evidence-toggle"
        >
          {evidence ? "Hide evidence" : "Evidence"}
        </button>
        {open ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={act.isPending}
              onClick={() => act.mutate({ path: "accept", body: {} })}
              data-testid="reco-accept"
            >
              Accept
            </button>
            <button
              type="button"
              disabled={act.isPending}
              onClick={() => act.mutate({ path: "snooze", body: { days: 7 } })}
              data-testid="reco-snooze"
            >
              Snooze 7 days
            </button>
            <button
              type="button"
              className="danger"
              disabled={act.isPending}
              onClick={() => setDismissing(!dismissing)}
              data-testid="reco-dismiss"
            >
              Dismiss…
            </button>
          </>
        ) : (
          <>
            <span className={`badge ${r.state}`} data-testid="reco-state">
              {r.state}
            </span>
            <span className="muted small">
              {r.actedBy ? `by ${r.actedBy} ` : ""}
              {r.actedAt ? <LocalTime value={r.actedAt} /> : null}
              {r.dismissReason ? ` · “${r.dismissReason}”` : ""}
              {r.snoozedUntil ? (
                <>
                  {" "}
                  · until <LocalTime value={r.snoozedUntil} />
                </>
              ) : null}
            </span>
            <button
              type="button"
              disabled={act.isPending}
              onClick={() => act.mutate({ path: "reopen", body: {} })}
              data-testid="reco-reopen"
            >
              Reopen
            </button>
          </>
        )}
        {act.error ? (
          <span className="field-error" role="alert">
            {act.error.message}
          </span>
        ) : null}
      </div>
      {/* a consolidate card (no smaller type: proposed is null) has nothing to resize to */}
      {r.kind === "idle_release" || (r.kind === "right_size" && r.evidence.proposed) ? (
        <div className="wide">
          <ReleasePanel r={r} mode={r.kind === "right_size" ? "resize" : "release"} />
        </div>
      ) : null}
      {dismissing && open ? (
        <div className="wide actions">
          <label className="field">
            Why dismiss it?
            <input
              type="text"
              value={reason}
              maxLength={500}
              aria-invalid={reasonError ? true : undefined}
              onChange={(e) => setReason(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") dismiss();
              }}
              data-testid="reco-dismiss-reason"
            />
          </label>
          <button
            type="button"
            className="danger"
            disabled={act.isPending}
            onClick={dismiss}
            data-testid="reco-dismiss-confirm"
          >
            Dismiss
          </button>
          {reasonError ? (
            <span className="field-error" data-testid="reco-dismiss-error">
              {reasonError}
            </span>
          ) : null}
        </div>
      ) : null}
      {evidence ? (
        <div className="wide" data-testid="reco-evidence">
          <LazyChartLineRecommendationEvidence
            series={ev.series}
            title={`Evidence for: ${r.title}`}
          />
          <dl className="kv small">
            <dt>Window</dt>
            <dd>
              <LocalTime value={ev.from} /> – <LocalTime value={ev.to} />
            </dd>
            {Object.entries(ev.metrics).map(([k, v]) => (
              <Metric key={k} name={k} value={v} />
            ))}
            <dt>Convention</dt>
            <dd>{ev.convention}</dd>
            {ev.caveat ? (
              <>
                <dt>Caveat</dt>
                <dd>{ev.caveat}</dd>
              </>
            ) : null}
          </dl>
        </div>
      ) : null}
    </li>
  );
}

function Metric({ name, value }: { name: string; value: string | number | boolean | null }) {
  return (
    <>
      <dt>{name}</dt>
      <dd className="mono">{value === null ? "—" : String(value)}</dd>
    </>
  );
}
