"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { policyQueries } from "@/lib/queries/policies.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  POLICY_EXECUTORS,
  POLICY_KINDS,
  POLICY_SCOPES,
  POLICY_TARGETS,
  policyInputSchema,
  policySchema,
  type PolicyDto,
} from "@/lib/zod/schemas/policy.ts";
import {
  Field,
  FormError,
  TextField,
  numberOrUndefined,
  parseNumberList,
  requestErrors,
  zodErrors,
  type Errors,
} from "./form-bits.tsx";
import {
  ACTION_LABELS,
  TARGET_LABELS,
  actionFor,
  actionsFor,
  runHoursText,
} from "./policy-run-fields.tsx";
import { ScaleFields, scaleBody, scaleText } from "./policy-scale-fields.tsx";

const EXECUTOR_LABELS: Record<(typeof POLICY_EXECUTORS)[number], string> = {
  simulated: "simulated cloud (demo)",
  webhook: "signed webhook",
  aws: "AWS EC2",
  gcp: "Google Compute Engine",
  azure: "Azure virtual machines",
  alibaba: "Alibaba Cloud ECS",
  tencent: "Tencent Cloud CVM",
};

/** What each executor needs on the server (credentials only from the cloud SDK's own chain). */
const EXECUTOR_HELP: Record<(typeof POLICY_EXECUTORS)[number], string> = {
  simulated: "Switches a demo simulator host off; touches no cloud.",
  webhook: "POSTs the action signed with GPUFLEET_POLICY_WEBHOOK_SECRET.",
  aws:
    "EC2 StopInstances/TerminateInstances on the host's instance id and region; credentials " +
    "from the AWS SDK's default chain, with ec2:StopInstances (and ec2:TerminateInstances).",
  gcp:
    "instances.stop/delete on the host's instance id and zone, in GOOGLE_CLOUD_PROJECT (else " +
    "the credentials' project); Application Default Credentials with compute.instances.stop " +
    "(and .delete), e.g. roles/compute.instanceAdmin.v1.",
  azure:
    "Deallocates (disks kept) / deletes the VM whose vmId is the host's instance id, found in " +
    "AZURE_SUBSCRIPTION_ID; DefaultAzureCredential (environment, managed identity, Azure CLI) " +
    "with Microsoft.Compute/virtualMachines/read and deallocate/action (and delete).",
  alibaba:
    "ECS StopInstance (StopCharging) / DeleteInstance on the host's instance id and region; keys " +
    "from the Alibaba Cloud default chain (ALIBABA_CLOUD_ACCESS_KEY_ID/_SECRET, credentials " +
    "file, ECS RAM role), with ecs:StopInstance (and ecs:DeleteInstance).",
  tencent:
    "CVM StopInstances (SOFT, STOP_CHARGING) / TerminateInstances on the host's instance id and " +
    "region; keys from the Tencent Cloud default chain (TENCENTCLOUD_SECRET_ID/_KEY, profile " +
    "file, CVM role), with cvm:StopInstances (and cvm:TerminateInstances).",
};

function Select<T extends string>(props: {
  label: string;
  value: T;
  options: readonly T[];
  labels?: Record<T, string>;
  onChange: (v: T) => void;
  testId: string;
  error?: string | undefined;
}) {
  return (
    <Field label={props.label} error={props.error}>
      <select
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as T)}
        data-testid={props.testId}
      >
        {props.options.map((o) => (
          <option key={o} value={o}>
            {props.labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </Field>
  );
}

const KIND_LABELS: Record<(typeof POLICY_KINDS)[number], string> = {
  idle_release: "idle release (every GPU idle)",
  max_runtime: "maximum run time (host running)",
  scale: "scale out / in (pool utilization)",
};

/** Create or edit a policy (idle release or maximum run time). A new one starts in dry run. */
export function PolicyForm({ policy, onDone }: { policy: PolicyDto | null; onDone: () => void }) {
  const client = useQueryClient();
  const [v, setV] = useState({
    name: policy?.name ?? "",
    kind: policy?.kind ?? "idle_release",
    action: policy?.action ?? "stop",
    idleHours: String(policy?.idleHours ?? 24),
    warnAt: (policy?.warnAt ?? [0.5, 0.9]).map((f) => Math.round(f * 100)).join(", "),
    graceMinutes: String(policy?.graceMinutes ?? 60),
    scopeKind: policy?.scopeKind ?? "fleet",
    scopeValue: policy?.scopeValue ?? "",
    executor: policy?.executor ?? "simulated",
    webhookUrl: "",
    optOutLabel: policy?.optOutLabel ?? "gpufleet.io/keep=true",
    target: policy?.target ?? "host",
  });
  const target = v.kind === "max_runtime" ? v.target : "host";
  const [scale, setScale] = useState(() => scaleText(policy));
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: keyof typeof v, value: string) => setV((old) => ({ ...old, [k]: value }));
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      policy
        ? sendJson("PATCH", `/api/policies/${encodeURIComponent(policy.id)}`, body, policySchema)
        : sendJson("POST", "/api/policies", body, policySchema),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: policyQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    const raw: Record<string, unknown> = {
      name: v.name,
      kind: v.kind,
      action: v.action,
      idleHours: numberOrUndefined(v.idleHours),
      warnAt: parseNumberList(v.warnAt).map((p) => p / 100),
      graceMinutes: numberOrUndefined(v.graceMinutes),
      scopeKind: v.scopeKind,
      scopeValue: v.scopeKind === "fleet" ? "" : v.scopeValue,
      executor: v.executor,
      optOutLabel: v.optOutLabel,
      scale: v.kind === "scale" ? scaleBody(scale) : null,
      target,
    };
    // the stored URL is never shown back (it may carry a token): leave it unchanged when blank
    if (v.webhookUrl.trim() !== "") raw.webhookUrl = v.webhookUrl.trim();
    else if (!policy) raw.webhookUrl = null;
    const parsed = policyInputSchema.safeParse({ webhookUrl: policy?.webhookUrl, ...raw });
    if (!parsed.success) return setErrors(zodErrors(parsed.error));
    setErrors({});
    save.mutate(raw);
  };
  const input = (k: keyof typeof v, label: string, hint?: string) => (
    <TextField
      label={label}
      value={v[k]}
      onChange={(value) => set(k, value)}
      error={errors[k]}
      hint={hint}
      testId={`policy-${k}`}
    />
  );
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="policy-form"
    >
      <FormError errors={errors} />
      {input("name", "Name")}
      <Select
        label="Kind"
        value={v.kind}
        options={POLICY_KINDS}
        labels={KIND_LABELS}
        onChange={(x) =>
          setV((old) => ({
            ...old,
            kind: x,
            action: actionFor(x === "max_runtime" ? old.target : "host", old.action),
          }))
        }
        testId="policy-kind"
      />
      {v.kind === "max_runtime" ? (
        <Select
          label="Counts"
          value={v.target}
          options={POLICY_TARGETS}
          labels={TARGET_LABELS}
          onChange={(x) => setV((old) => ({ ...old, target: x, action: actionFor(x, old.action) }))}
          error={errors.target}
          testId="policy-target"
        />
      ) : null}
      {v.kind === "scale" ? (
        <ScaleFields
          value={scale}
          errors={errors}
          onChange={(k, x) => setScale((old) => ({ ...old, [k]: x }))}
        />
      ) : null}
      {v.kind === "scale"
        ? null
        : v.kind === "max_runtime"
          ? input("idleHours", ...runHoursText(target))
          : input("idleHours", "Every GPU idle for (hours)")}
      {v.kind === "scale" ? null : (
        <>
          <Select
            label="Then"
            value={v.action}
            options={actionsFor(target)}
            labels={ACTION_LABELS}
            onChange={(x) => set("action", x)}
            error={errors.action}
            testId="policy-action"
          />
          {input("warnAt", "Warn at (% of those hours)", "e.g. 50, 90")}
          {input("graceMinutes", "Grace after the last warning (minutes)")}
        </>
      )}
      <Select
        label="Scope"
        value={v.scopeKind}
        options={POLICY_SCOPES}
        onChange={(x) => set("scopeKind", x)}
        testId="policy-scopeKind"
      />
      {v.scopeKind !== "fleet"
        ? input(
            "scopeValue",
            v.scopeKind === "label" ? "Label (key=value)" : `Which ${v.scopeKind}`,
          )
        : null}
      <Select
        label="Executor"
        value={v.executor}
        options={POLICY_EXECUTORS}
        labels={EXECUTOR_LABELS}
        onChange={(x) => set("executor", x)}
        error={errors.executor}
        testId="policy-executor"
      />
      <p className="muted small" data-testid="policy-executor-help">
        {EXECUTOR_HELP[v.executor]}
      </p>
      {v.executor === "webhook"
        ? input(
            "webhookUrl",
            "Webhook URL",
            policy?.webhookUrl ? `now ${policy.webhookUrl}; blank keeps it` : undefined,
          )
        : null}
      {input("optOutLabel", "Opt-out label (key=value)")}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="policy-save"
        >
          {policy ? "Save policy" : "Add policy (dry run)"}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
