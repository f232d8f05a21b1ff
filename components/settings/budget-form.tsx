"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatMicros } from "@/lib/core/money.ts";
import { alertQueries } from "@/lib/queries/alerts.ts";
import { settingsQueries } from "@/lib/queries/settings.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { evaluateResultSchema } from "@/lib/zod/schemas/alert.ts";
import {
  BUDGET_SCOPES,
  budgetInputSchema,
  budgetSchema,
  type BudgetDto,
} from "@/lib/zod/schemas/budget.ts";
import {
  Field,
  FormError,
  TextField,
  parseNumberList,
  requestErrors,
  zodErrors,
  type Errors,
} from "./form-bits.tsx";

function amountText(micros: string): string {
  return formatMicros(BigInt(micros)).replace(/\.?0+$/, "");
}

/** Create or edit a monthly budget; saving re-evaluates the alert rules so its alert shows now. */
export function BudgetForm({ budget, onDone }: { budget: BudgetDto | null; onDone: () => void }) {
  const client = useQueryClient();
  const [v, setV] = useState({
    name: budget?.name ?? "",
    scopeKind: budget?.scopeKind ?? "team",
    scopeValue: budget?.scopeValue ?? "",
    amount: budget ? amountText(budget.amountMicros) : "",
    thresholds: budget ? budget.thresholds.join(", ") : "50, 80, 100",
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: keyof typeof v, value: string) => setV((old) => ({ ...old, [k]: value }));
  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      const saved = budget
        ? await sendJson(
            "PATCH",
            `/api/budgets/${encodeURIComponent(budget.id)}`,
            body,
            budgetSchema,
          )
        : await sendJson("POST", "/api/budgets", body, budgetSchema);
      await sendJson("POST", "/api/alerts/evaluate", {}, evaluateResultSchema).catch(() => null);
      return saved;
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: settingsQueries.all() });
      void client.invalidateQueries({ queryKey: alertQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    const raw = {
      name: v.name,
      scopeKind: v.scopeKind,
      scopeValue: v.scopeKind === "fleet" ? "" : v.scopeValue,
      amount: v.amount.trim().replace(/^\$/, ""),
      thresholds: parseNumberList(v.thresholds),
    };
    const parsed = budgetInputSchema.safeParse(raw);
    if (!parsed.success) {
      const errs = zodErrors(parsed.error);
      // one message for the whole list, on the field that holds it
      const t = Object.entries(errs).find(([k]) => k.startsWith("thresholds"));
      setErrors(t ? { ...errs, thresholds: t[1] } : errs);
      return;
    }
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
      testId={`budget-${k}`}
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
      data-testid="budget-form"
    >
      <FormError errors={errors} />
      {input("name", "Name")}
      <Field label="Scope" error={errors.scopeKind}>
        <select
          value={v.scopeKind}
          onChange={(e) => set("scopeKind", e.target.value)}
          data-testid="budget-scopeKind"
        >
          {BUDGET_SCOPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </Field>
      {v.scopeKind !== "fleet" ? input("scopeValue", `Which ${v.scopeKind}`) : null}
      {input("amount", "Amount per month (USD)", "e.g. 12000 or 12000.50")}
      {input("thresholds", "Thresholds (%)", "on actual and forecast spend, e.g. 50, 80, 100")}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="budget-save"
        >
          {budget ? "Save budget" : "Add budget"}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
