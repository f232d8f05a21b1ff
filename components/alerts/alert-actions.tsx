"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { alertQueries } from "@/lib/queries/alerts.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { alertDetailSchema, type AlertDto } from "@/lib/zod/schemas/alert.ts";

const SNOOZE_CHOICES = [
  { minutes: 60, label: "1 hour" },
  { minutes: 240, label: "4 hours" },
  { minutes: 1440, label: "1 day" },
  { minutes: 10_080, label: "1 week" },
];

type Act = { path: "acknowledge" | "resolve" } | { path: "snooze"; minutes: number };

/** Acknowledge, snooze and resolve buttons for one alert; the list refreshes after each. */
export function AlertActions({ alert }: { alert: AlertDto }) {
  const client = useQueryClient();
  const [minutes, setMinutes] = useState(240);
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
  const open = alert.state !== "resolved";
  return (
    <span className="actions">
      {alert.state === "firing" ? (
        <button
          type="button"
          className="primary"
          disabled={act.isPending}
          onClick={() => act.mutate({ path: "acknowledge" })}
          data-testid="alert-ack"
        >
          Acknowledge
        </button>
      ) : null}
      {open ? (
        <>
          <select
            aria-label="Snooze for"
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
            data-testid="alert-snooze-for"
          >
            {SNOOZE_CHOICES.map((c) => (
              <option key={c.minutes} value={c.minutes}>
                {c.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={act.isPending}
            onClick={() => act.mutate({ path: "snooze", minutes })}
            data-testid="alert-snooze"
          >
            Snooze
          </button>
          <button
            type="button"
            disabled={act.isPending}
            onClick={() => act.mutate({ path: "resolve" })}
            data-testid="alert-resolve"
          >
            Resolve
          </button>
        </>
      ) : null}
      {act.error ? (
        <span className="field-error" role="alert">
          {act.error.message}
        </span>
      ) : null}
    </span>
  );
}
