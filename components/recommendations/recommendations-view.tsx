"use client";

import { PolicySavingsStat } from "../policies/policy-savings-stat.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { bannerFor } from "@/lib/fleet/health.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { recommendationQueries, type RecommendationFilter } from "@/lib/queries/recommendations.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  RECOMMENDATION_KIND_LABELS,
  RECOMMENDATION_KINDS,
  RECOMMENDATION_STATES,
  recomputeResultSchema,
  type RecommendationKind,
} from "@/lib/zod/schemas/recommendation.ts";
import { SourceBanner } from "../source-banner.tsx";
import { Stat } from "../stat.tsx";
import { LocalTime } from "../time-zone.tsx";
import { useSearchState } from "../use-search-state.ts";
import { RecommendationCard } from "./recommendation-card.tsx";

const FILTERS: RecommendationFilter[] = [...RECOMMENDATION_STATES, "all"];

function parseFilter(v: string | null): RecommendationFilter {
  return v !== null && (FILTERS as string[]).includes(v) ? (v as RecommendationFilter) : "open";
}

function parseKind(v: string | null): RecommendationKind | undefined {
  return v !== null && (RECOMMENDATION_KINDS as readonly string[]).includes(v)
    ? (v as RecommendationKind)
    : undefined;
}

export function RecommendationsView() {
  const [params, setParams] = useSearchState();
  const state = parseFilter(params.get("state"));
  const kind = parseKind(params.get("kind"));
  const q = useQuery(recommendationQueries.list(state, kind));
  const client = useQueryClient();
  const recompute = useMutation({
    mutationFn: () => sendJson("POST", "/api/recommendations/recompute", {}, recomputeResultSchema),
    onSettled: () => client.invalidateQueries({ queryKey: recommendationQueries.all() }),
  });
  const set = (k: string, v: string | undefined) => {
    const p = new URLSearchParams(params);
    if (v === undefined) p.delete(k);
    else p.set(k, v);
    setParams(p);
  };
  const name = useId();
  const banner = bannerFor({
    health: undefined,
    requestError: q.error?.message ?? null,
    dataUpdatedAt: q.dataUpdatedAt,
  });
  const d = q.data;
  return (
    <>
      <div className="page-title">
        <h1>Recommendations</h1>
        <p>
          Savings from the usage ledger, recomputed daily.{" "}
          {d?.lastComputedAt ? (
            <>
              Last run <LocalTime value={d.lastComputedAt} />.
            </>
          ) : null}
        </p>
        <span className="spacer" />
        <button
          type="button"
          onClick={() => recompute.mutate()}
          disabled={recompute.isPending}
          data-testid="reco-recompute"
        >
          {recompute.isPending ? "Recomputing…" : "Recompute now"}
        </button>
      </div>
      <SourceBanner banner={banner} onRetry={() => void q.refetch()} />
      {recompute.error ? (
        <div className="banner error" role="alert">
          <strong>Recompute failed</strong> {recompute.error.message}
        </div>
      ) : null}
      {d ? (
        <section className="stats" aria-label="Savings">
          <Stat
            testId="reco-total"
            label="Possible saving"
            value={`${formatMoney(d.totals.possibleMicros)}/mo`}
            sub={`${d.totals.openCount} open; per host only the largest counts`}
            data={{ "data-micros": d.totals.possibleMicros }}
          />
          <Stat
            testId="reco-accepted-total"
            label="Accepted"
            value={`${formatMoney(d.totals.acceptedMicros)}/mo`}
            sub={`${d.totals.acceptedCount} accepted`}
            data={{ "data-micros": d.totals.acceptedMicros }}
          />
          <PolicySavingsStat />
          <Stat
            testId="reco-dismissed"
            label="Dismissed / snoozed"
            value={`${d.totals.dismissedCount} / ${d.totals.snoozedCount}`}
            sub="not recreated while dismissed or snoozed"
          />
        </section>
      ) : null}
      <section className="panel" aria-labelledby="reco-title">
        <div className="panel-head">
          <h2 id="reco-title">Highest saving first</h2>
          <span className="muted small">{d?.convention}</span>
          <span className="spacer" />
          <div className="filters" role="search" aria-label="Filter recommendations">
            <fieldset className="segmented" data-testid="reco-filter-state">
              <legend>State</legend>
              {FILTERS.map((s) => (
                <label key={s}>
                  <input
                    type="radio"
                    name={name}
                    value={s}
                    checked={state === s}
                    onChange={() => set("state", s === "open" ? undefined : s)}
                    data-testid={`reco-filter-${s}`}
                  />
                  {s}
                </label>
              ))}
            </fieldset>
            <label className="field">
              Kind
              <select
                value={kind ?? ""}
                onChange={(e) => set("kind", e.target.value || undefined)}
                data-testid="reco-filter-kind"
              >
                <option value="">All kinds</option>
                {RECOMMENDATION_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {RECOMMENDATION_KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        {!d ? (
          q.isPending ? (
            <p className="loading" role="status">
              Loading recommendations…
            </p>
          ) : null
        ) : d.recommendations.length === 0 ? (
          <p className="muted" data-testid="reco-empty">
            Nothing here. Recommendations need a few days of ledger data; the collector recomputes
            them at start and daily.
          </p>
        ) : (
          <ul className="reco-list">
            {d.recommendations.map((r) => (
              <RecommendationCard key={r.id} r={r} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
