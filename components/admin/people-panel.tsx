"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminQueries, appSettingsSchema } from "@/lib/queries/admin.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { personSchema, type PersonKind } from "@/lib/zod/schemas/person.ts";
import { TableWrap } from "../table-wrap.tsx";

// The people directory (issue 24): who hears about the GPUs a user, a pod namespace or a Slurm
// account holds. An address pattern for everyone, a CSV, and entries by hand (which win).

async function uploadCsv(file: File): Promise<{ imported: number; keptManual: number }> {
  const res = await fetch("/api/people/import", {
    method: "POST",
    headers: { "content-type": "text/csv", accept: "application/json" },
    body: await file.text(),
  });
  const data = (await res.json().catch(() => null)) as {
    imported: number;
    keptManual: number;
    error?: string;
  } | null;
  if (!res.ok) throw new Error(data?.error ?? `upload failed (${res.status})`);
  // a 2xx without the counts (a proxy's page, say) is no import to report
  if (typeof data?.imported !== "number") throw new Error("the server's answer was not understood");
  return data;
}

export function PeoplePanel() {
  const client = useQueryClient();
  const people = useQuery(adminQueries.people());
  const settings = useQuery(adminQueries.settings());
  const refresh = () => client.invalidateQueries({ queryKey: adminQueries.all() });
  const [pattern, setPattern] = useState<string | null>(null);
  const [entry, setEntry] = useState({
    kind: "user" as PersonKind,
    key: "",
    email: "",
    slackId: "",
  });
  const savePattern = useMutation({
    mutationFn: (p: string) =>
      sendJson(
        "PATCH",
        "/api/settings",
        { peopleEmailPattern: p.trim() || null },
        appSettingsSchema,
      ),
    onSettled: refresh,
  });
  const add = useMutation({
    mutationFn: () =>
      sendJson(
        "POST",
        "/api/people",
        { ...entry, email: entry.email.trim() || null, slackId: entry.slackId.trim() || null },
        personSchema,
      ),
    onSuccess: () => setEntry({ kind: "user", key: "", email: "", slackId: "" }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/people/${encodeURIComponent(id)}`, undefined, null),
    onSettled: refresh,
  });
  const upload = useMutation({ mutationFn: uploadCsv, onSettled: refresh });
  const error = savePattern.error ?? add.error ?? remove.error ?? upload.error ?? people.error;
  const shownPattern = pattern ?? settings.data?.peopleEmailPattern ?? "";
  return (
    <section className="panel" aria-labelledby="people-title" data-testid="people-panel">
      <div className="panel-head">
        <h2 id="people-title">People directory</h2>
        <span className="muted small">
          idle alerts about a GPU go to whoever holds it: a user, a pod namespace or a Slurm account
        </span>
      </div>
      {error ? (
        <p className="field-error" role="alert" data-testid="people-error">
          {error.message}
        </p>
      ) : null}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          savePattern.mutate(shownPattern);
        }}
      >
        <label>
          Address pattern for users with no entry
          <input
            value={shownPattern}
            placeholder="{user}@example.com"
            onChange={(e) => setPattern(e.target.value)}
            data-testid="people-pattern"
          />
        </label>
        <button type="submit" disabled={savePattern.isPending}>
          Save pattern
        </button>
      </form>
      <label>
        Upload a CSV (kind,key,email,slack_id; replaces the previous CSV&apos;s entries)
        <input
          type="file"
          accept=".csv,text/csv"
          data-testid="people-csv"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) upload.mutate(f);
          }}
        />
      </label>
      {upload.data ? (
        <p className="muted small" role="status">
          Imported {upload.data.imported}; {upload.data.keptManual} kept as entered by hand.
        </p>
      ) : null}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <select
          value={entry.kind}
          onChange={(e) => setEntry({ ...entry, kind: e.target.value as PersonKind })}
          aria-label="Kind"
        >
          <option value="user">user</option>
          <option value="namespace">pod namespace</option>
          <option value="account">Slurm account</option>
        </select>
        <input
          aria-label="Name"
          placeholder="alice"
          value={entry.key}
          onChange={(e) => setEntry({ ...entry, key: e.target.value })}
          data-testid="people-key"
        />
        <input
          aria-label="Email"
          placeholder="alice@example.com"
          value={entry.email}
          onChange={(e) => setEntry({ ...entry, email: e.target.value })}
          data-testid="people-email"
        />
        <input
          aria-label="Slack member id"
          placeholder="U024BE7LH"
          value={entry.slackId}
          onChange={(e) => setEntry({ ...entry, slackId: e.target.value })}
        />
        <button type="submit" disabled={add.isPending} data-testid="people-add">
          Add
        </button>
      </form>
      <TableWrap label="People directory table">
        <table className="data" data-testid="people-table">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Slack</th>
              <th scope="col">From</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(people.data ?? []).map((p) => (
              <tr key={p.id}>
                <td>{p.kind}</td>
                <td>{p.key}</td>
                <td>{p.email ?? "—"}</td>
                <td>{p.slackId ?? "—"}</td>
                <td>{p.source === "csv" ? "CSV" : "by hand"}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => remove.mutate(p.id)}
                    disabled={remove.isPending}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
