"use client";

import { useQuery } from "@tanstack/react-query";
import { alertQueries } from "@/lib/queries/alerts.ts";
import { LocalTime } from "../time-zone.tsx";

/** An alert's state history and its notifications, attempt by attempt. */
export function AlertDetail({ id }: { id: string }) {
  const q = useQuery(alertQueries.detail(id));
  if (q.isPending) return <p className="muted small">Loading…</p>;
  if (q.error) return <p className="field-error">{q.error.message}</p>;
  const a = q.data;
  return (
    <div className="detail-grid" data-testid="alert-detail">
      <section>
        <h3>History</h3>
        {a.clearSince ? (
          <p className="small" data-testid="alert-detail-resolving">
            <span className="badge resolving">resolving</span> since{" "}
            <LocalTime value={a.clearSince} />: the condition cleared; the alert resolves if it
            stays clear for the resolve hold, and counts as firing until then.
          </p>
        ) : null}
        <ol className="timeline" data-testid="alert-events">
          {a.events.map((e) => (
            <li key={e.id} data-testid="alert-event" data-to={e.to}>
              <LocalTime value={e.at} /> · {e.from ?? "new"} → <strong>{e.to}</strong>
              {e.by ? ` by ${e.by}` : ""}
              {e.note ? <span className="muted"> · {e.note}</span> : null}
            </li>
          ))}
        </ol>
      </section>
      <section>
        <h3>Notifications</h3>
        {a.notifications.length === 0 ? (
          <p className="muted small">
            None sent: no enabled channel routes this alert, or it was snoozed.
          </p>
        ) : (
          <ul className="timeline">
            {a.notifications.map((n) => (
              <li key={n.id} data-testid="alert-notification" data-status={n.status}>
                <strong>{n.channelName}</strong>
                {n.recipient ? (
                  <span data-testid="alert-notification-recipient"> to {n.recipient}</span>
                ) : null}{" "}
                · {n.transition} ·{" "}
                <span className={`badge ${n.status === "delivered" ? "ok" : n.status}`}>
                  {n.status}
                </span>{" "}
                after {n.attempts} attempt{n.attempts === 1 ? "" : "s"}
                {n.lastError ? <span className="field-error"> · {n.lastError}</span> : null}
                {n.status === "pending" ? (
                  <span className="muted">
                    {" "}
                    · next try <LocalTime value={n.nextAttemptAt} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h3>Details</h3>
        <dl className="kv">
          {Object.entries(a.details)
            .filter(([, v]) => v !== null && typeof v !== "object")
            .map(([k, v]) => (
              <Pair key={k} k={k} v={String(v)} />
            ))}
        </dl>
      </section>
    </div>
  );
}

function Pair({ k, v }: { k: string; v: string }) {
  return (
    <>
      <dt>{k}</dt>
      <dd className="mono">{v}</dd>
    </>
  );
}
