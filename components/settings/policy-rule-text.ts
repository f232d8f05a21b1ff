import type { PolicyDto } from "@/lib/zod/schemas/policy.ts";

const pct = (f: number) => `${Math.round(f * 100)} %`;

/** A policy's rule in one line, as the settings table shows it. */
export function policyRuleText(
  p: Pick<
    PolicyDto,
    "kind" | "target" | "idleHours" | "action" | "warnAt" | "graceMinutes" | "scale"
  >,
): string {
  if (p.kind === "scale" && p.scale) {
    const s = p.scale;
    return (
      `≥ ${pct(s.highMark)} for ${s.highMinutes} min → scale out by 1; ` +
      `≤ ${pct(s.lowMark)} for ${s.lowMinutes} min → scale in by 1; ` +
      `cool-down ${s.cooldownMinutes} min; ${s.min}–${s.max} hosts`
    );
  }
  const what =
    p.kind === "max_runtime" ? `${p.target === "host" ? "" : `each ${p.target} `}running` : "idle";
  return (
    `${what} ${p.idleHours} h → ${p.action.replace("_", " ")}; ` +
    `warn at ${p.warnAt.map(pct).join(", ")}; grace ${p.graceMinutes} min`
  );
}
