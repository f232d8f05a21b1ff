"use client";

// The cells and badges of an alert's row in the alerts table (alert-table.tsx).
import { formatDateTime } from "@/lib/format/time.ts";
import type { AlertDto } from "@/lib/zod/schemas/alert.ts";
import { ALERT_KIND_LABELS } from "@/lib/zod/schemas/rule.ts";
import { ShortTime } from "../short-time.tsx";
import { LocalTime, useTimeZone } from "../time-zone.tsx";

export function Since({ value }: { value: string }) {
  return <ShortTime value={value} />;
}

export function KindCell({ kind, idleKinds }: { kind: AlertDto["kind"]; idleKinds: string[] }) {
  const text = `${ALERT_KIND_LABELS[kind]}${idleKinds.length ? ` · ${idleKinds.join(", ")}` : ""}`;
  return (
    <td>
      <span className="clip kind" title={text}>
        {ALERT_KIND_LABELS[kind]}
        {idleKinds.length > 0 ? (
          <span className="muted small"> · {idleKinds.join(", ")}</span>
        ) : null}
      </span>
    </td>
  );
}

export function Ended({ value }: { value: string }) {
  const tz = useTimeZone();
  return (
    <span className="muted small" title={`ended ${formatDateTime(value, tz)}`}>
      {" "}
      · ended
    </span>
  );
}

export function ScopeCell({
  hostname,
  team,
  project,
}: Pick<AlertDto, "hostname" | "team" | "project">) {
  const scope = [hostname, team, project].filter((x) => x !== null).join(" · ");
  return (
    <td>
      <span className="clip scope" title={scope || "fleet"}>
        {scope || <span className="muted">fleet</span>}
      </span>
    </td>
  );
}

export function OwnerCell({ owner }: { owner: string | null }) {
  return (
    <td>
      {owner ? (
        <span className="clip owner" title={owner}>
          {owner}
        </span>
      ) : (
        <span className="muted">—</span>
      )}
    </td>
  );
}

/** "by ada": an email shows its name part; the whole address is in the title and read aloud. */
export function AckedBy({ by }: { by: string }) {
  const at = by.indexOf("@");
  return (
    <span
      className="muted small clip by"
      title={`acknowledged by ${by}`}
      data-testid="alert-acked-by"
    >
      by {at > 0 ? by.slice(0, at) : by}
      {at > 0 ? <span className="sr-only">{by.slice(at)}</span> : null}
    </span>
  );
}

export function SnoozedPill({ until, count }: { until: string | null; count?: number }) {
  const tz = useTimeZone();
  const title = until ? `snoozed until ${formatDateTime(until, tz)}` : "snoozed";
  return (
    <span
      className="badge snoozed"
      title={count === undefined ? title : `${count} snoozed: no notifications for them`}
      data-testid={count === undefined ? "alert-snoozed" : "alert-group-snoozed"}
    >
      {count === undefined ? "snoozed" : `${count} snoozed`}
      {until && count === undefined ? (
        <span className="sr-only">
          {" "}
          until <LocalTime value={until} />
        </span>
      ) : null}
    </span>
  );
}

/** "resolving (since 30 Nov, 22:03)": the condition cleared; it resolves if it stays clear. */
export function ResolvingPill({ since }: { since: string }) {
  return (
    <span
      className="badge resolving"
      title="the condition cleared: the alert resolves if it stays clear for the resolve hold, and still counts as firing until then"
      data-testid="alert-resolving"
    >
      resolving (since <ShortTime value={since} />)
    </span>
  );
}
