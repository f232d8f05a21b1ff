"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { alertQueries } from "@/lib/queries/alerts.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  alertBulkResultSchema,
  alertDetailSchema,
  type AlertBulkResult,
  type AlertDto,
  type BulkAlertAction,
} from "@/lib/zod/schemas/alert.ts";

export const SNOOZE_CHOICES = [
  { minutes: 60, label: "1 hour" },
  { minutes: 240, label: "4 hours" },
  { minutes: 1440, label: "1 day" },
  { minutes: 10_080, label: "1 week" },
];

type Act = { path: "acknowledge" | "resolve" } | { path: "snooze"; minutes: number };

/**
 * A "Snooze ▾" button whose durations open in a popover (the top layer: never clipped by the
 * table's scroll box); picking one acts at once. Escape or a click elsewhere closes it.
 */
export function SnoozeMenu({
  label,
  testId,
  disabled,
  onPick,
}: {
  label: string;
  testId: string;
  disabled?: boolean;
  onPick: (minutes: number) => void;
}) {
  const menuId = `snooze-menu-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);

  // a fixed-position popover would drift from its button when anything scrolls: close it instead
  useEffect(() => {
    if (!open) return;
    const close = () => menu.current?.hidePopover();
    window.addEventListener("scroll", close, true);
    window.addEventListener("resize", close);
    return () => {
      window.removeEventListener("scroll", close, true);
      window.removeEventListener("resize", close);
    };
  }, [open]);

  const place = () => {
    const b = button.current?.getBoundingClientRect();
    const m = menu.current;
    if (!b || !m) return;
    m.style.top = `${Math.round(b.bottom + 2)}px`;
    // open towards the left when the button sits near the right edge
    if (b.left + 180 > window.innerWidth) {
      m.style.left = "auto";
      m.style.right = `${Math.round(window.innerWidth - b.right)}px`;
    } else {
      m.style.right = "auto";
      m.style.left = `${Math.round(b.left)}px`;
    }
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        popoverTarget={menuId}
        aria-expanded={open}
        disabled={disabled}
        data-testid={testId}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      <div
        ref={menu}
        id={menuId}
        popover="auto"
        className="menu-popover"
        role="group"
        aria-label={`${label}: how long`}
        onBeforeToggle={(e) => {
          if (e.newState === "open") place();
        }}
        onToggle={(e) => setOpen(e.newState === "open")}
        data-testid={`${testId}-menu`}
      >
        {SNOOZE_CHOICES.map((c) => (
          <button
            key={c.minutes}
            type="button"
            onClick={() => {
              menu.current?.hidePopover();
              onPick(c.minutes);
            }}
            data-testid={`${testId}-${c.minutes}`}
          >
            {c.label}
          </button>
        ))}
      </div>
    </>
  );
}

/** The one-line action set: Acknowledge (while firing), Snooze ▾, Resolve (while open). */
function ActionLine({
  canAcknowledge,
  canChange,
  pending,
  error,
  testPrefix,
  onAct,
  label,
}: {
  canAcknowledge: boolean;
  canChange: boolean;
  pending: boolean;
  error: string | null;
  testPrefix: string;
  onAct: (a: Act) => void;
  /** spoken after each button's name when the row is a group ("all 4") */
  label?: string;
}) {
  return (
    <span className="actions one-line">
      {canAcknowledge ? (
        <button
          type="button"
          className="primary"
          disabled={pending}
          onClick={() => onAct({ path: "acknowledge" })}
          aria-label={label ? `Acknowledge ${label}` : undefined}
          data-testid={`${testPrefix}-ack`}
        >
          Acknowledge
        </button>
      ) : null}
      {canChange ? (
        <>
          <SnoozeMenu
            label="Snooze"
            testId={`${testPrefix}-snooze`}
            disabled={pending}
            onPick={(minutes) => onAct({ path: "snooze", minutes })}
          />
          <button
            type="button"
            disabled={pending}
            onClick={() => onAct({ path: "resolve" })}
            aria-label={label ? `Resolve ${label}` : undefined}
            data-testid={`${testPrefix}-resolve`}
          >
            Resolve
          </button>
        </>
      ) : null}
      {error ? (
        <span className="field-error" role="alert" title={error}>
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** Acknowledge, snooze and resolve for one alert; the list refreshes after each. */
export function AlertActions({ alert }: { alert: AlertDto }) {
  const client = useQueryClient();
  const act = useMutation({
    mutationFn: (a: Act) =>
      sendJson(
        "POST",
        `/api/alerts/${encodeURIComponent(alert.id)}/${a.path}`,
        a.path === "snooze" ? { minutes: a.minutes } : {},
        alertDetailSchema,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
  return (
    <ActionLine
      canAcknowledge={alert.state === "firing"}
      canChange={alert.state !== "resolved"}
      pending={act.isPending}
      error={act.error?.message ?? null}
      testPrefix="alert"
      onAct={(a) => act.mutate(a)}
    />
  );
}

export function bulkBody(
  action: BulkAlertAction,
  alerts: readonly AlertDto[],
  minutes?: number,
): { ids: string[]; action: BulkAlertAction; minutes?: number } {
  // only the alerts the action applies to: acknowledging takes firing ones, the rest open ones
  const ids = alerts
    .filter((a) => (action === "acknowledge" ? a.state === "firing" : a.state !== "resolved"))
    .map((a) => a.id);
  return action === "snooze" ? { ids, action, minutes: minutes ?? 60 } : { ids, action };
}

/** POST /api/alerts/bulk; the list refreshes after each. */
export function useBulkAction(onDone?: (r: AlertBulkResult) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReturnType<typeof bulkBody>) => {
      const r = await sendJson("POST", "/api/alerts/bulk", body, alertBulkResultSchema);
      if (!r) throw new Error("no answer from /api/alerts/bulk");
      return r;
    },
    onSuccess: (r) => onDone?.(r),
    onSettled: () => client.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

/** "2 of 4 could not be acknowledged: alert is resolved, not firing", or null when all went. */
export function bulkFailure(r: AlertBulkResult): string | null {
  if (r.failed === 0) return null;
  const reasons = [...new Set(r.results.flatMap((x) => (x.ok || !x.error ? [] : [x.error])))];
  const verb = { acknowledge: "acknowledged", snooze: "snoozed", resolve: "resolved" }[r.action];
  return `${r.failed} of ${r.results.length} could not be ${verb}${reasons.length ? `: ${reasons.slice(0, 2).join("; ")}` : ""}`;
}

/** The same actions for a group row: each acts on every alert of the group it applies to. */
export function GroupActions({ alerts, what }: { alerts: AlertDto[]; what: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  const bulk = useBulkAction((r) => setFailure(bulkFailure(r)));
  return (
    <ActionLine
      canAcknowledge={alerts.some((a) => a.state === "firing")}
      canChange={alerts.some((a) => a.state !== "resolved")}
      pending={bulk.isPending}
      error={bulk.error?.message ?? failure}
      testPrefix="alert-group"
      label={what}
      onAct={(a) =>
        bulk.mutate(
          a.path === "snooze"
            ? bulkBody("snooze", alerts, a.minutes)
            : bulkBody(a.path === "acknowledge" ? "acknowledge" : "resolve", alerts),
        )
      }
    />
  );
}
