"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { policyQueries } from "@/lib/queries/policies.ts";
import { recommendationQueries } from "@/lib/queries/recommendations.ts";
import { releaseQueries } from "@/lib/queries/release.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import type { RecommendationDto } from "@/lib/zod/schemas/recommendation.ts";
import {
  releaseResultSchema,
  type ReleaseOptionDto,
  type ScheduledReleaseDto,
} from "@/lib/zod/schemas/release.ts";
import { LocalTime } from "../time-zone.tsx";

// "Release it…" on an idle-host recommendation: choose one of the active idle-release policies
// that cover the host; accepting schedules the release through it (the owner and holders are
// warned now with keep links; the policy stops the host after its grace period unless kept).

/** The choice of policy, or why there is none (pure, for the page and its test). */
export function ReleaseChoice(props: {
  policies: ReleaseOptionDto[];
  chosen: string;
  pending: boolean;
  onChoose: (id: string) => void;
  onConfirm: () => void;
}) {
  if (props.policies.length === 0)
    return (
      <p className="small" data-testid="reco-release-none">
        No active idle-release policy covers this host. Make one active in{" "}
        <a href="/settings#policies-title">settings</a> to release it from here.
      </p>
    );
  const chosen = props.policies.find((p) => p.id === props.chosen);
  return (
    <div className="actions">
      <label className="field">
        Release through policy
        <select
          value={props.chosen}
          onChange={(e) => props.onChoose(e.target.value)}
          data-testid="reco-release-policy"
        >
          {props.policies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.action}, {p.graceMinutes} min grace, {p.executor})
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="primary"
        disabled={props.pending || !chosen}
        onClick={props.onConfirm}
        data-testid="reco-release-confirm"
      >
        Accept and {chosen?.action === "terminate" ? "terminate" : "stop"} after warning
      </button>
    </div>
  );
}

/** What the accept scheduled: who was warned and when the host stops unless kept. */
export function ReleaseSummary({ release }: { release: ScheduledReleaseDto }) {
  const who = release.recipients.map((r) => `${r.name} (${r.role})`).join(", ");
  const verb = release.action === "terminate" ? "terminated" : "stops";
  return (
    <p className="small" data-testid="reco-release-summary">
      Release scheduled by policy “{release.policyName}”: warned {who || "no one (no owner label)"},{" "}
      {verb} at <LocalTime value={release.actAt} /> unless kept.
    </p>
  );
}

export function ReleasePanel({ r }: { r: RecommendationDto }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState("");
  const options = useQuery({ ...releaseQueries.options(r.id), enabled: open });
  const actions = useQuery({ ...policyQueries.actions(), enabled: r.state === "accepted" });
  const release = useMutation({
    mutationFn: (policyId: string) =>
      sendJson(
        "POST",
        `/api/recommendations/${encodeURIComponent(r.id)}/release`,
        { policyId },
        releaseResultSchema,
      ),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: recommendationQueries.all() });
      void client.invalidateQueries({ queryKey: policyQueries.all() });
    },
  });
  if (release.data) return <ReleaseSummary release={release.data.release} />;
  if (r.state === "accepted") {
    const planned = actions.data?.actions.find((a) => a.hostId === r.hostId);
    return planned ? (
      <p className="small" data-testid="reco-release-planned">
        Release scheduled by policy “{planned.policyName}”: {planned.action} at{" "}
        <LocalTime value={planned.actAt} /> unless kept
        {planned.keepUntil ? (
          <>
            {" "}
            (kept until <LocalTime value={planned.keepUntil} />)
          </>
        ) : null}
        .
      </p>
    ) : null;
  }
  if (r.state !== "open" && r.state !== "snoozed") return null;
  const policies = options.data?.policies ?? [];
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="reco-release"
      >
        Release it…
      </button>
      {open && options.isPending ? <span className="muted small"> loading policies…</span> : null}
      {open && options.data ? (
        <ReleaseChoice
          policies={policies}
          chosen={chosen || (policies[0]?.id ?? "")}
          pending={release.isPending}
          onChoose={setChosen}
          onConfirm={() => release.mutate(chosen || (policies[0]?.id ?? ""))}
        />
      ) : null}
      {options.error || release.error ? (
        <span className="field-error" role="alert">
          {(options.error ?? release.error)?.message}
        </span>
      ) : null}
    </div>
  );
}
