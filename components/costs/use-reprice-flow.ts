"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import { formatMoney } from "@/lib/format/money.ts";
import { costQueries } from "@/lib/queries/costs.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { repriceResultSchema, type RepriceResultDto } from "@/lib/zod/schemas/reprice.ts";

// Re-pricing a month from the page, one flow for every source (today's catalogue on the pricing
// settings, the imported bill on the reconciliation): a preview with the old and new totals, then
// an apply that sends the previewed total, so a change in between is refused (409): preview again.
// A closed month needs `reopen`, which the panels ask for with a checkbox.

/** A month of a large fleet is hundreds of thousands of ledger rows: minutes, not seconds. */
export const REPRICE_TIMEOUT_MS = 10 * 60_000;

/** "+$12.50" / "-$3.00" / "$0.00" */
export function signedMoney(micros: string, currency: string): string {
  const v = BigInt(micros);
  return `${v > 0n ? "+" : ""}${formatMoney(v, currency)}`;
}

export function useRepriceFlow(url: string, alsoInvalidate: readonly QueryKey[] = []) {
  const client = useQueryClient();
  const [preview, setPreview] = useState<RepriceResultDto | null>(null);
  const [result, setResult] = useState<RepriceResultDto | null>(null);
  const [reopen, setReopen] = useState(false);
  const applyMut = useMutation({
    mutationFn: (p: RepriceResultDto) =>
      sendJson(
        "POST",
        url,
        {
          month: p.month,
          apply: true,
          expectedNewTotalMicros: p.newTotalMicros,
          ...(p.closed ? { reopen: true } : {}),
        },
        repriceResultSchema,
        REPRICE_TIMEOUT_MS,
      ),
    onSuccess: (done) => {
      setResult(done);
      setPreview(null);
      setReopen(false);
      for (const key of [costQueries.all(), fleetQueries.all(), ...alsoInvalidate])
        void client.invalidateQueries({ queryKey: key });
    },
  });
  const previewMut = useMutation({
    mutationFn: (month: string) =>
      sendJson("POST", url, { month }, repriceResultSchema, REPRICE_TIMEOUT_MS),
    onSuccess: (p) => {
      setPreview(p);
      setResult(null);
      applyMut.reset();
    },
  });
  /** forgets the preview and the result (another month was chosen) */
  const clear = () => {
    setPreview(null);
    setResult(null);
    setReopen(false);
    previewMut.reset();
    applyMut.reset();
  };
  return { preview, result, reopen, setReopen, previewMut, applyMut, clear };
}
