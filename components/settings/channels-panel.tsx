"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { settingsQueries } from "@/lib/queries/settings.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  ALERTMANAGER_RESEND_INTERVAL_S,
  CHANNEL_KIND_LABELS,
  channelTestResultSchema,
  type ChannelDto,
  type ChannelTestResult,
} from "@/lib/zod/schemas/channel.ts";
import { RULE_KIND_LABELS } from "@/lib/zod/schemas/rule.ts";
import { LocalTime } from "../time-zone.tsx";
import { ChannelForm } from "./channel-form.tsx";

export function ChannelsPanel() {
  const q = useQuery(settingsQueries.channels());
  const client = useQueryClient();
  const [editing, setEditing] = useState<ChannelDto | "new" | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/channels/${encodeURIComponent(id)}`, undefined, null),
    onSettled: () => client.invalidateQueries({ queryKey: settingsQueries.all() }),
  });
  return (
    <section className="panel" aria-labelledby="channels-title" data-testid="channels-panel">
      <div className="panel-head">
        <h2 id="channels-title">Notification channels</h2>
        <span className="muted small">
          each alert transition is sent once per channel, retried with backoff until accepted
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => setEditing("new")} data-testid="channel-new">
          Add channel
        </button>
      </div>
      {editing === "new" ? <ChannelForm channel={null} onDone={() => setEditing(null)} /> : null}
      {q.error ? <p className="field-error">{q.error.message}</p> : null}
      {q.data ? (
        <div className="table-wrap">
          <table className="data" data-testid="channels-table">
            <thead>
              <tr>
                <th>Channel</th>
                <th>Kind</th>
                <th>URL</th>
                <th>Routes</th>
                <th>Status</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {q.data.channels.map((c) =>
                editing !== "new" && editing?.id === c.id ? (
                  <tr key={c.id}>
                    <td colSpan={6} className="detail-cell">
                      <ChannelForm channel={c} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <ChannelRow
                    key={c.id}
                    c={c}
                    onEdit={() => setEditing(c)}
                    deleting={deleting === c.id}
                    onDelete={() => (deleting === c.id ? remove.mutate(c.id) : setDeleting(c.id))}
                  />
                ),
              )}
            </tbody>
          </table>
          {q.data.channels.length === 0 ? (
            <p className="muted">No channels: alerts show here and on the alerts page only.</p>
          ) : null}
        </div>
      ) : null}
      {remove.error ? <p className="field-error">{remove.error.message}</p> : null}
    </section>
  );
}

function ChannelRow({
  c,
  onEdit,
  deleting,
  onDelete,
}: {
  c: ChannelDto;
  onEdit: () => void;
  deleting: boolean;
  onDelete: () => void;
}) {
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const test = useMutation({
    mutationFn: () =>
      sendJson(
        "POST",
        `/api/channels/${encodeURIComponent(c.id)}/test`,
        {},
        channelTestResultSchema,
      ),
    onSuccess: (r) => setResult(r),
  });
  const h = c.health;
  return (
    <tr data-testid="channel-row" data-id={c.id} data-status={h.status}>
      <td>{c.name}</td>
      <td>
        {CHANNEL_KIND_LABELS[c.kind]}
        {c.kind === "alertmanager_api" ? (
          <div className="muted small">
            open alerts re-sent every {ALERTMANAGER_RESEND_INTERVAL_S} s
          </div>
        ) : null}
      </td>
      <td className="mono wrap">{c.url}</td>
      <td className="wrap">
        {c.scopeKind === "fleet" ? "whole fleet" : `${c.scopeKind} ${c.scopeValue}`}
        <div className="muted small">
          {c.kinds.length === 0 ? "every kind" : c.kinds.map((k) => RULE_KIND_LABELS[k]).join(", ")}
        </div>
      </td>
      <td>
        <span className={`badge ${h.status}`} data-testid="channel-status">
          {h.status}
        </span>
        <div className="muted small">
          {h.delivered} delivered · {h.pending} pending · {h.failed} failed
        </div>
        {h.lastError ? (
          <div className="field-error small">
            {h.consecutiveFailures} failure{h.consecutiveFailures === 1 ? "" : "s"} in a row:{" "}
            {h.lastError}
          </div>
        ) : null}
        {h.lastAttemptAt ? (
          <div className="muted small">
            last try <LocalTime value={h.lastAttemptAt} />
          </div>
        ) : null}
      </td>
      <td>
        <span className="actions">
          <button
            type="button"
            disabled={test.isPending}
            onClick={() => test.mutate()}
            data-testid="channel-test"
          >
            {test.isPending ? "Sending…" : "Send test"}
          </button>
          <button type="button" onClick={onEdit} data-testid="channel-edit">
            Edit
          </button>
          <button type="button" className="danger" onClick={onDelete} data-testid="channel-delete">
            {deleting ? "Confirm delete" : "Delete"}
          </button>
        </span>
        {result ? (
          <div
            className={result.ok ? "small" : "field-error small"}
            role="status"
            data-testid="channel-test-result"
            data-ok={result.ok ? "yes" : "no"}
          >
            {result.ok
              ? `Delivered: HTTP ${result.httpStatus ?? "?"} in ${result.durationMs} ms`
              : `Failed: ${result.error ?? "unknown error"}`}
          </div>
        ) : null}
        {test.error ? <div className="field-error small">{test.error.message}</div> : null}
      </td>
    </tr>
  );
}
