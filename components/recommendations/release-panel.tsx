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
  resizeResultSchema,
  type ReleaseOptionDto,
  type ScheduledReleaseDto,
} from "@/lib/zod/schemas/release.ts";
import { LocalTime } from "../time-zone.tsx";

// "Release it…" on an idle-host recommendation and "Right-size…" on a right-size one: choose one
// of the active idle-release policies that cover the host (for a resize, those whose executor can
// resize; the others are named with why not); accepting schedules the action through it (the
// owner and holders are warned now with keep links; the policy stops or resizes the host after its
// grace period unless kept).

export type AcceptMode = "release" | "resize";

/** Covering policies whose executor cannot resize, said plainly (no silent no-op). */
function CannotResize({ policies }: { policies: ReleaseOptionDto[] }) {
  if (policies.length === 0) return null;
  return (
    <ul className="small" data-testid="reco-resize-cannot">
      {policies.map((p) => (
        <li key={p.id}>
          Policy “{p.name}” acts through the {p.executor} executor, which cannot resize a host.
        </li>
      ))}
    </ul>
  );
}

/** The choice of policy, or why there is none (pure, for the page and its test). */
export function ReleaseChoice(props: {
  policies: ReleaseOptionDto[];
  chosen: string;
  pending: boolean;
  onChoose: (id: string) => void;
  onConfirm: () => void;
  /** resize: to this instance type; the covering policies that cannot resize */
  resize?: { to: string; cannot: ReleaseOptionDto[] };
}) {
  const { resize } = props;
  if (props.policies.length === 0)
    return (
      <div className="small" data-testid="reco-release-none">
        <p>
          No active idle-release policy {resize ? "whose executor can resize " : ""}covers this
          host. Make one active in <a href="/settings#policies-title">settings</a> to{" "}
          {resize ? "resize" : "release"} it from here.
        </p>
        <CannotResize policies={resize?.cannot ?? []} />
      </div>
    );
  const chosen = props.policies.find((p) => p.id === props.chosen);
  const verb = resize
    ? `resize to ${resize.to}`
    : chosen?.action === "terminate"
      ? "terminate"
      : "stop";
  return (
    <div className="actions">
      <label className="field">
        {resize ? "Resize" : "Release"} through policy
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
        Accept and {verb} after warning
      </button>
      <CannotResize policies={resize?.cannot ?? []} />
    </div>
  );
}

/** What the accept scheduled: who was warned and when the host stops unless kept. */
export function ReleaseSummary({ release }: { release: ScheduledReleaseDto }) {
  const who = release.recipients.map((r) => `${r.name} (${r.role})`).join(", ");
  const verb = release.resize
    ? `resized to ${release.resize.to}`
    : release.action === "terminate"
      ? "terminated"
      : "stops";
  return (
    <p className="small" data-testid="reco-release-summary">
      {release.resize ? "Resize" : "Release"} scheduled by policy “{release.policyName}”: warned{" "}
      {who || "no one (no owner label)"}, {verb} at <LocalTime value={release.actAt} /> unless kept.
    </p>
  );
}

export function ReleasePanel({ r, mode = "release" }: { r: RecommendationDto; mode?: AcceptMode }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState("");
  const options = useQuery({ ...releaseQueries.options(r.id, mode), enabled: open });
  const actions = useQuery({ ...policyQueries.actions(), enabled: r.state === "accepted" });
  const release = useMutation({
    mutationFn: async (policyId: string) => {
      const path = `/api/recommendations/${encodeURIComponent(r.id)}/${mode}`;
      if (mode === "release")
        return (await sendJson("POST", path, { policyId }, releaseResultSchema))?.release ?? null;
      return (await sendJson("POST", path, { policyId }, resizeResultSchema))?.resize ?? null;
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: recommendationQueries.all() });
      void client.invalidateQueries({ queryKey: policyQueries.all() });
    },
  });
  if (release.data) return <ReleaseSummary release={release.data} />;
  if (r.state === "accepted") {
    const planned = actions.data?.actions.find((a) => a.hostId === r.hostId);
    return planned ? (
      <p className="small" data-testid="reco-release-planned">
        {planned.action === "resize" ? "Resize" : "Release"} scheduled by policy “
        {planned.policyName}”:{" "}
        {planned.action === "resize" ? `resize to ${planned.resizeTo ?? "?"}` : planned.action} at{" "}
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
        data-testid={mode === "resize" ? "reco-resize" : "reco-release"}
      >
        {mode === "resize" ? "Right-size…" : "Release it…"}
      </button>
      {open && options.isPending ? <span className="muted small"> loading policies…</span> : null}
      {open && options.data ? (
        <ReleaseChoice
          policies={policies}
          chosen={chosen || (policies[0]?.id ?? "")}
          pending={release.isPending}
          onChoose={setChosen}
          onConfirm={() => release.mutate(chosen || (policies[0]?.id ?? ""))}
          {...(mode === "resize"
            ? {
                resize: {
                  to: r.evidence.proposed?.instanceType ?? "?",
                  cannot: options.data.cannotResize,
                },
              }
            : {})}
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
