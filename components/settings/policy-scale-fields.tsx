"use client";

import type { PolicyDto } from "@/lib/zod/schemas/policy.ts";
import { TextField, numberOrUndefined, type Errors } from "./form-bits.tsx";

// A scale policy's settings in the policy form: the high and low marks (percent of GPU
// utilization) and how long the pool must stay past them, the cool-down, and the pool's size
// bounds. Blank fields take the defaults (80 % for 15 min, 20 % for 60 min, 10 min, 0 to 10).

export type ScaleText = Record<
  "highMark" | "highMinutes" | "lowMark" | "lowMinutes" | "cooldownMinutes" | "min" | "max",
  string
>;

export function scaleText(p: PolicyDto | null): ScaleText {
  const s = p?.scale;
  return {
    highMark: String(Math.round((s?.highMark ?? 0.8) * 100)),
    highMinutes: String(s?.highMinutes ?? 15),
    lowMark: String(Math.round((s?.lowMark ?? 0.2) * 100)),
    lowMinutes: String(s?.lowMinutes ?? 60),
    cooldownMinutes: String(s?.cooldownMinutes ?? 10),
    min: String(s?.min ?? 0),
    max: String(s?.max ?? 10),
  };
}

/** The request's `scale` object (marks as 0-1); blank fields are left to the defaults. */
export function scaleBody(t: ScaleText): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(t)) {
    const n = numberOrUndefined(v);
    if (n === undefined) continue;
    out[k] = k === "highMark" || k === "lowMark" ? n / 100 : n;
  }
  return out;
}

const LABELS: Record<keyof ScaleText, string> = {
  highMark: "Scale out at or above (% utilization)",
  highMinutes: "… sustained for (minutes)",
  lowMark: "Scale in below (% utilization)",
  lowMinutes: "… sustained for (minutes)",
  cooldownMinutes: "Cool-down after a signal (minutes)",
  min: "Pool size at least",
  max: "Pool size at most",
};

export function ScaleFields(props: {
  value: ScaleText;
  errors: Errors;
  onChange: (k: keyof ScaleText, v: string) => void;
}) {
  return (
    <>
      <p className="muted small">
        A pool is the hosts sharing a gpufleet.io/asg label (the autoscaling group), else an
        instance type and team. A signal changes its desired size by one.
      </p>
      {(Object.keys(LABELS) as (keyof ScaleText)[]).map((k) => (
        <TextField
          key={k}
          label={LABELS[k]}
          value={props.value[k]}
          onChange={(v) => props.onChange(k, v)}
          error={props.errors[`scale.${k}`] ?? (k === "lowMark" ? props.errors.scale : undefined)}
          testId={`policy-scale-${k}`}
        />
      ))}
    </>
  );
}
