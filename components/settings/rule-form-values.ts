import type { RuleDto, RuleKind } from "@/lib/zod/schemas/rule.ts";
import { labelsText, numberOrUndefined } from "./form-bits.tsx";

// Rule form values are text; ratios are typed as percentages and sent as 0-1.

export type Values = Record<string, string>;

/** The form's text fields for a stored rule (or a new one). */
export function initial(rule: RuleDto | null): Values {
  const p = rule?.params ?? {};
  const str = (v: unknown, scale = 1) =>
    typeof v === "number" ? String(Math.round(v * scale * 1000) / 1000) : "";
  const list = (v: unknown) => (Array.isArray(v) ? v.join(",") : "");
  return {
    name: rule?.name ?? "",
    kind: rule?.kind ?? "idle",
    enabled: rule ? String(rule.enabled) : "true",
    scopeKind: rule?.scopeKind ?? "fleet",
    scopeValue: rule?.scopeValue ?? "",
    excludeLabels: rule ? labelsText(rule.excludeLabels) : "",
    cooldownMinutes: rule ? String(rule.cooldownMinutes) : "60",
    utilThresholdPct: str(p.utilThreshold, 100),
    heldMemPct: str(p.heldMemRatio, 100),
    minRatioPct: str(p.minRatio, 100),
    durationMinutes: str(p.durationMinutes),
    notify: typeof p.notify === "string" ? p.notify : "held_and_empty",
    basis: list(p.basis) || "actual,forecast",
    classes: list(p.classes) || "thermal,power",
    missedIntervals: str(p.missedIntervals),
    windowMinutes: str(p.windowMinutes),
    minIncrease: str(p.minIncrease),
    limitCelsius: str(p.limitCelsius),
  };
}

/** The rule's params from the form's text: percentages → ratios, empty → the default. */
export function params(kind: RuleKind, v: Values): Record<string, unknown> {
  const n = (k: string) => numberOrUndefined(v[k] ?? "");
  const pct = (k: string) => {
    const x = n(k);
    return x === undefined ? undefined : x / 100;
  };
  const list = (k: string) => (v[k] ?? "").split(",").filter((s) => s !== "");
  const out: Record<string, unknown> = (() => {
    switch (kind) {
      case "idle":
        return {
          utilThreshold: pct("utilThresholdPct"),
          durationMinutes: n("durationMinutes"),
          heldMemRatio: pct("heldMemPct"),
          notify: v.notify,
        };
      case "budget":
        return { basis: list("basis") };
      case "exporter_down":
      case "gpu_missing":
      case "metrics_backend_down":
        return { missedIntervals: n("missedIntervals") };
      case "ecc":
        return { windowMinutes: n("windowMinutes"), minIncrease: n("minIncrease") };
      case "temperature":
        return { limitCelsius: n("limitCelsius"), durationMinutes: n("durationMinutes") };
      case "throttle":
        return {
          classes: list("classes"),
          minRatio: pct("minRatioPct"),
          durationMinutes: n("durationMinutes"),
        };
      case "spot_interruption":
        return {};
    }
  })();
  return Object.fromEntries(Object.entries(out).filter(([, x]) => x !== undefined));
}
