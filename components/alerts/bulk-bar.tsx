"use client";

import { useState } from "react";
import type { AlertDto, BulkAlertAction } from "@/lib/zod/schemas/alert.ts";
import { bulkBody, bulkFailure, SnoozeMenu, useBulkAction } from "./alert-actions.tsx";

const DONE: Record<BulkAlertAction, string> = {
  acknowledge: "Acknowledged",
  snooze: "Snoozed",
  resolve: "Resolved",
};

/**
 * Acts on the selected alerts in one request (POST /api/alerts/bulk): acknowledge the firing ones,
 * snooze or resolve the open ones. Always shown, so selecting does not move the table; says how
 * it went, alert by alert where some could not be changed.
 */
export function BulkBar({
  selected,
  onDone,
}: {
  /** the selected alerts among those listed */
  selected: AlertDto[];
  /** the request went through: clear the selection */
  onDone: () => void;
}) {
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const bulk = useBulkAction((r) => {
    const failure = bulkFailure(r);
    const n = r.succeeded;
    setMessage({
      text: `${DONE[r.action]} ${n} alert${n === 1 ? "" : "s"}${failure ? `; ${failure}` : "."}`,
      failed: failure !== null,
    });
    onDone();
  });
  const run = (action: BulkAlertAction, minutes?: number) => {
    setMessage(null);
    bulk.mutate(bulkBody(action, selected, minutes));
  };
  const firing = selected.filter((a) => a.state === "firing").length;
  const open = selected.filter((a) => a.state !== "resolved").length;
  const busy = bulk.isPending;
  return (
    <div
      className="bulk-bar"
      role="group"
      aria-label="Act on the selected alerts"
      data-testid="alert-bulk"
      data-selected={selected.length}
    >
      <span className="bulk-count" data-testid="bulk-count">
        {selected.length === 0
          ? "Select alerts to act on several at once"
          : `${selected.length} selected`}
      </span>
      <span className="actions one-line">
        <button
          type="button"
          className="primary"
          disabled={busy || firing === 0}
          onClick={() => run("acknowledge")}
          data-testid="bulk-ack"
        >
          Acknowledge selected
        </button>
        <SnoozeMenu
          label="Snooze selected for"
          testId="bulk-snooze"
          disabled={busy || open === 0}
          onPick={(minutes) => run("snooze", minutes)}
        />
        <button
          type="button"
          disabled={busy || open === 0}
          onClick={() => run("resolve")}
          data-testid="bulk-resolve"
        >
          Resolve selected
        </button>
      </span>
      <span
        className={bulk.error || message?.failed ? "field-error" : "muted small"}
        role="status"
        data-testid="bulk-result"
      >
        {busy ? "Working…" : (bulk.error?.message ?? message?.text ?? "")}
      </span>
    </div>
  );
}
