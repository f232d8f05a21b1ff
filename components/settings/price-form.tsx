"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { pricingQueries } from "@/lib/queries/admin.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import type { PricePrefill } from "@/lib/pricing/prefill.ts";
import { PRICING_MODELS } from "@/exporter/contract.ts";
import {
  priceInputSchema,
  pricingRowSchema,
  type PricingRowDto,
} from "@/lib/zod/schemas/pricing.ts";
import {
  Field,
  FormError,
  TextField,
  numberOrUndefined,
  requestErrors,
  zodErrors,
  type Errors,
} from "./form-bits.tsx";

type Values = {
  provider: string;
  instanceType: string;
  region: string;
  pricingModel: string;
  gpuModel: string;
  gpuCount: string;
  gpuMemoryGiB: string;
  usdPerHour: string;
  effectiveFrom: string;
  source: string;
  sourceDate: string;
  note: string;
};

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function initial(row: PricingRowDto | null, prefill: PricePrefill | null): Values {
  if (row) {
    return {
      provider: row.provider,
      instanceType: row.instanceType,
      region: row.region,
      pricingModel: row.pricingModel,
      gpuModel: row.gpuModel,
      gpuCount: String(row.gpuCount),
      gpuMemoryGiB: String(row.gpuMemoryGiB),
      usdPerHour: row.usdPerHour.replace(/\.?0+$/, ""),
      effectiveFrom: row.effectiveFrom.slice(0, 10),
      source: row.source,
      sourceDate: row.sourceDate,
      note: row.note ?? "",
    };
  }
  return {
    provider: prefill?.provider ?? "",
    instanceType: prefill?.instanceType ?? "",
    region: prefill?.region ?? "*",
    pricingModel: prefill?.pricingModel ?? "on_demand",
    gpuModel: prefill?.gpuModel ?? "",
    gpuCount: prefill?.gpuCount ?? "1",
    gpuMemoryGiB: "",
    usdPerHour: "",
    // a new price applies from the start of this month, so the open month can be re-priced
    effectiveFrom: `${today().slice(0, 8)}01`,
    source: "",
    sourceDate: today().slice(0, 7),
    note: "",
  };
}

/** Add a catalogue price, or change one (which makes it yours: no release overwrites it). */
export function PriceForm({
  row,
  prefill,
  onDone,
}: {
  row: PricingRowDto | null;
  prefill: PricePrefill | null;
  onDone: (saved: PricingRowDto | null) => void;
}) {
  const client = useQueryClient();
  const [v, setV] = useState<Values>(() => initial(row, prefill));
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: keyof Values, value: string) => setV((old) => ({ ...old, [k]: value }));
  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) =>
      row
        ? sendJson("PATCH", `/api/pricing/${encodeURIComponent(row.id)}`, body, pricingRowSchema)
        : sendJson("POST", "/api/pricing", body, pricingRowSchema),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: pricingQueries.all() });
      void client.invalidateQueries({ queryKey: fleetQueries.all() });
      onDone(saved);
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    const raw = {
      provider: v.provider.trim().toLowerCase(),
      instanceType: v.instanceType,
      region: v.region.trim() === "" ? "*" : v.region,
      pricingModel: v.pricingModel,
      gpuModel: v.gpuModel,
      gpuCount: numberOrUndefined(v.gpuCount),
      gpuMemoryGiB: numberOrUndefined(v.gpuMemoryGiB),
      usdPerHour: v.usdPerHour.trim().replace(/^\$/, ""),
      effectiveFrom: v.effectiveFrom,
      source: v.source,
      sourceDate: v.sourceDate,
      note: v.note.trim() === "" ? null : v.note,
    };
    const parsed = priceInputSchema.safeParse(raw);
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(raw);
  };
  const input = (k: keyof Values, label: string, hint?: string) => (
    <TextField
      label={label}
      value={v[k]}
      onChange={(value) => set(k, value)}
      error={errors[k]}
      hint={hint}
      testId={`price-${k}`}
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
      data-testid="price-form"
      aria-label={row ? "Change price" : "Add price"}
    >
      <FormError errors={errors} />
      {input("provider", "Provider", "aws, gcp, azure, alibaba, tencent, onprem…")}
      {input("instanceType", "Instance type", "as the exporter reports it, e.g. p5.48xlarge")}
      {input("region", "Region", "e.g. us-east-1; * for any region without its own row")}
      <Field label="Pricing model" error={errors.pricingModel}>
        <select
          value={v.pricingModel}
          onChange={(e) => set("pricingModel", e.target.value)}
          data-testid="price-pricingModel"
        >
          {PRICING_MODELS.map((m) => (
            <option key={m} value={m}>
              {m.replace(/_/g, "-")}
            </option>
          ))}
        </select>
      </Field>
      {input("gpuModel", "GPU model", "e.g. H100-80GB")}
      {input("gpuCount", "GPUs per instance")}
      {input("gpuMemoryGiB", "Memory per GPU (GiB)", "nominal, e.g. 80")}
      {input("usdPerHour", "Price per instance-hour (USD)", "e.g. 55.04 (up to 6 decimals)")}
      {input("effectiveFrom", "Effective from (UTC date)", "hours from this date use the price")}
      {input("source", "Source", "the page or document the price comes from")}
      {input("sourceDate", "Source date", "when it was read, e.g. 2025-06")}
      {input("note", "Note (optional)")}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="price-save"
        >
          {row ? "Save price" : "Add price"}
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
