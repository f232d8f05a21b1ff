"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { settingsQueries } from "@/lib/queries/settings.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  RULE_KIND_LABELS,
  RULE_KINDS,
  RULE_SCOPES,
  ruleInputSchema,
  ruleSchema,
  type RuleDto,
  type RuleKind,
} from "@/lib/zod/schemas/rule.ts";
import {
  Field,
  FormError,
  numberOrUndefined,
  parseLabels,
  requestErrors,
  zodErrors,
  type Errors,
} from "./form-bits.tsx";
import { initial, params, type Values } from "./rule-form-values.ts";

export function RuleForm({ rule, onDone }: { rule: RuleDto | null; onDone: () => void }) {
  const client = useQueryClient();
  const [v, setV] = useState<Values>(() => initial(rule));
  const [errors, setErrors] = useState<Errors>({});
  const kind = v.kind as RuleKind;
  const set = (k: string, value: string) => setV((old) => ({ ...old, [k]: value }));
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      rule
        ? sendJson("PATCH", `/api/rules/${encodeURIComponent(rule.id)}`, body, ruleSchema)
        : sendJson("POST", "/api/rules", body, ruleSchema),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: settingsQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    const labels = parseLabels(v.excludeLabels ?? "");
    if (labels === null) {
      setErrors({ excludeLabels: "write labels as name=value, separated by commas" });
      return;
    }
    const raw = {
      name: v.name,
      kind,
      enabled: v.enabled === "true",
      scopeKind: v.scopeKind,
      scopeValue: v.scopeKind === "fleet" ? "" : v.scopeValue,
      excludeLabels: labels,
      cooldownMinutes: numberOrUndefined(v.cooldownMinutes ?? ""),
      params: params(kind, v),
    };
    const parsed = ruleInputSchema.safeParse(raw);
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    const { kind: _kind, ...patch } = parsed.data;
    save.mutate(rule ? patch : parsed.data);
  };
  const text = (
    k: string,
    label: string,
    error: string | undefined,
    hint?: string,
    type = "text",
  ) => (
    <Field label={label} error={error} hint={hint}>
      <input
        type={type}
        value={v[k] ?? ""}
        onChange={(e) => set(k, e.target.value)}
        aria-invalid={error ? true : undefined}
        data-testid={`rule-${k}`}
      />
    </Field>
  );
  const checks = (k: string, legend: string, options: string[], error: string | undefined) => {
    const chosen = (v[k] ?? "").split(",").filter((s) => s !== "");
    return (
      <fieldset className="checks">
        <legend>{legend}</legend>
        {options.map((o) => (
          <label key={o}>
            <input
              type="checkbox"
              checked={chosen.includes(o)}
              onChange={(e) =>
                set(
                  k,
                  (e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o)).join(","),
                )
              }
              data-testid={`rule-${k}-${o}`}
            />
            {o}
          </label>
        ))}
        {error ? <span className="field-error">{error}</span> : null}
      </fieldset>
    );
  };
  const e = (path: string) => errors[path];
  return (
    <form
      className="form"
      onSubmit={(ev) => {
        ev.preventDefault();
        submit();
      }}
      data-testid="rule-form"
      noValidate
    >
      <FormError errors={errors} />
      {text("name", "Name", e("name"))}
      <Field label="Kind" error={e("kind")}>
        <select
          value={kind}
          disabled={rule !== null}
          onChange={(ev) => set("kind", ev.target.value)}
          data-testid="rule-kind"
        >
          {RULE_KINDS.map((k) => (
            <option key={k} value={k}>
              {RULE_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Scope" error={e("scopeKind")}>
        <select
          value={v.scopeKind}
          onChange={(ev) => set("scopeKind", ev.target.value)}
          data-testid="rule-scopeKind"
        >
          {RULE_SCOPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </Field>
      {v.scopeKind !== "fleet" ? text("scopeValue", `Which ${v.scopeKind}`, e("scopeValue")) : null}
      {text(
        "excludeLabels",
        "Exclude hosts with labels",
        e("excludeLabels"),
        "e.g. env=dev, interruptible=true",
      )}
      {text(
        "cooldownMinutes",
        "Cool-down (minutes)",
        e("cooldownMinutes"),
        "no new notification if it returns within this",
        "number",
      )}
      {kind === "idle" ? (
        <>
          {text(
            "utilThresholdPct",
            "Idle under (% SM)",
            e("params.utilThreshold"),
            "default 5",
            "number",
          )}
          {text(
            "durationMinutes",
            "For at least (minutes)",
            e("params.durationMinutes"),
            "default 30",
            "number",
          )}
          {text(
            "heldMemPct",
            "Held above (% memory)",
            e("params.heldMemRatio"),
            "or a process attached; default 1",
            "number",
          )}
          <Field label="Alert on" error={e("params.notify")}>
            <select
              value={v.notify}
              onChange={(ev) => set("notify", ev.target.value)}
              data-testid="rule-notify"
            >
              <option value="held_and_empty">held and empty GPUs</option>
              <option value="held">held but idle only</option>
              <option value="empty">empty only</option>
            </select>
          </Field>
        </>
      ) : null}
      {kind === "budget"
        ? checks("basis", "Thresholds on", ["actual", "forecast"], e("params.basis"))
        : null}
      {kind === "exporter_down" || kind === "gpu_missing" || kind === "metrics_backend_down"
        ? text(
            "missedIntervals",
            "Missed collection intervals",
            e("params.missedIntervals"),
            "default 2",
            "number",
          )
        : null}
      {kind === "ecc" ? (
        <>
          {text(
            "windowMinutes",
            "Window (minutes)",
            e("params.windowMinutes"),
            "default 1440 (24 h)",
            "number",
          )}
          {text(
            "minIncrease",
            "New errors at least",
            e("params.minIncrease"),
            "default 1",
            "number",
          )}
        </>
      ) : null}
      {kind === "temperature" ? (
        <>
          {text("limitCelsius", "Limit (°C)", e("params.limitCelsius"), "default 85", "number")}
          {text(
            "durationMinutes",
            "Averaged over (minutes)",
            e("params.durationMinutes"),
            "default 5",
            "number",
          )}
        </>
      ) : null}
      {kind === "throttle" ? (
        <>
          {checks("classes", "Throttle reasons", ["thermal", "power"], e("params.classes"))}
          {text(
            "minRatioPct",
            "Active at least (% of the window)",
            e("params.minRatio"),
            "default 80",
            "number",
          )}
          {text(
            "durationMinutes",
            "Window (minutes)",
            e("params.durationMinutes"),
            "default 15",
            "number",
          )}
        </>
      ) : null}
      {kind === "metrics_backend_down" ? (
        <p className="muted small" data-testid="rule-backend-note">
          Prometheus mode only: one fleet-wide alert while Prometheus cannot be read; resolves when
          it answers. Never fires in embedded mode.
        </p>
      ) : null}
      {kind === "spot_interruption" ? (
        <p className="muted small" data-testid="rule-spot-note">
          Fires while a spot host&apos;s reclaim notice is pending; nothing to tune.
        </p>
      ) : null}
      <div className="form-actions">
        <label className="checks">
          <input
            type="checkbox"
            checked={v.enabled === "true"}
            onChange={(ev) => set("enabled", String(ev.target.checked))}
            data-testid="rule-enabled"
          />
          enabled
        </label>
        <button type="submit" className="primary" disabled={save.isPending} data-testid="rule-save">
          {rule ? "Save rule" : "Add rule"}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
