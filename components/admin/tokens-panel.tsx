"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { TOKEN_SCOPES, type TokenScope } from "@/lib/auth/roles.ts";
import {
  adminQueries,
  createdTokenSchema,
  tokenSchema,
  type CreatedTokenDto,
  type TokenDto,
} from "@/lib/queries/admin.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { createTokenSchema } from "@/lib/zod/schemas/admin.ts";
import {
  ConfirmButton,
  Field,
  FormError,
  requestErrors,
  zodErrors,
  type Errors,
} from "../settings/form-bits.tsx";
import { LocalTime } from "../time-zone.tsx";
import { TokenSecret } from "./token-secret.tsx";
import { TableWrap } from "../table-wrap.tsx";

export const SCOPE_LABELS: Record<TokenScope, string> = {
  read: "Read: read-only GET routes (fleet, costs, alerts, metrics…)",
  write: "Write: also changes (acknowledge alerts, budgets, recommendations…)",
};

const SCOPE_HINT = "tokens never administer users, tokens, channels or rules";

export function TokensPanel() {
  const q = useQuery(adminQueries.tokens());
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedTokenDto | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/tokens/${encodeURIComponent(id)}`, undefined, tokenSchema),
    onSuccess: () => setRevoking(null),
    onSettled: () => client.invalidateQueries({ queryKey: adminQueries.all() }),
  });
  return (
    <section className="panel" aria-labelledby="tokens-title" data-testid="tokens-panel">
      <div className="panel-head">
        <h2 id="tokens-title">API tokens</h2>
        <span className="muted small">
          for scripts and Prometheus:{" "}
          <span className="mono">Authorization: Bearer &lt;token&gt;</span>
        </span>
        <span className="spacer" />
        <button
          type="button"
          onClick={() => setCreating(true)}
          disabled={creating}
          data-testid="token-new"
        >
          Create token
        </button>
      </div>
      {creating ? (
        <TokenCreateForm
          onCreated={(t) => {
            setCreating(false);
            setCreated(t);
          }}
          onCancel={() => setCreating(false)}
        />
      ) : null}
      {created ? (
        <TokenSecret key={created.id} created={created} onDone={() => setCreated(null)} />
      ) : null}
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      {q.isPending ? <p className="loading">Loading tokens…</p> : null}
      {q.data ? (
        <TableWrap label="API tokens table">
          <table className="data" data-testid="tokens-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Scope</th>
                <th>Created by</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Revoked</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {q.data.tokens.map((t) => (
                <TokenRow
                  key={t.id}
                  t={t}
                  revoking={revoking === t.id}
                  pending={revoke.isPending && revoke.variables === t.id}
                  onRevoke={() => {
                    if (revoking === t.id) revoke.mutate(t.id);
                    else {
                      revoke.reset();
                      setRevoking(t.id);
                    }
                  }}
                  onCancel={() => setRevoking(null)}
                />
              ))}
            </tbody>
          </table>
          {q.data.tokens.length === 0 ? <p className="muted">No API tokens yet.</p> : null}
        </TableWrap>
      ) : null}
      {revoke.error ? (
        <p className="field-error" role="alert" data-testid="token-revoke-error">
          Could not revoke: {revoke.error.message}
        </p>
      ) : null}
    </section>
  );
}

function TokenCreateForm({
  onCreated,
  onCancel,
}: {
  onCreated: (t: CreatedTokenDto) => void;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("read");
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: async (body: { name: string; scope: TokenScope }) => {
      const t = await sendJson("POST", "/api/tokens", body, createdTokenSchema);
      if (!t) throw new Error("the server answered without the token");
      return t;
    },
    onSuccess: (t) => {
      void client.invalidateQueries({ queryKey: adminQueries.all() });
      onCreated(t);
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    const body = { name: name.trim(), scope };
    const parsed = createTokenSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(body);
  };
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="token-form"
    >
      <FormError errors={errors} />
      <Field
        label="Name"
        error={errors.name}
        hint="what uses it, e.g. prometheus or nightly-report"
      >
        <input
          type="text"
          value={name}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
          aria-invalid={errors.name ? true : undefined}
          data-testid="token-name"
        />
      </Field>
      <Field label="Scope" error={errors.scope} hint={SCOPE_HINT}>
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value === "write" ? "write" : "read")}
          aria-invalid={errors.scope ? true : undefined}
          data-testid="token-scope"
        >
          {TOKEN_SCOPES.map((s) => (
            <option key={s} value={s}>
              {SCOPE_LABELS[s]}
            </option>
          ))}
        </select>
      </Field>
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="token-save"
        >
          {save.isPending ? "Creating…" : "Create token"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function TokenRow({
  t,
  revoking,
  pending,
  onRevoke,
  onCancel,
}: {
  t: TokenDto;
  revoking: boolean;
  pending: boolean;
  onRevoke: () => void;
  onCancel: () => void;
}) {
  return (
    <tr
      data-testid="token-row"
      data-id={t.id}
      data-name={t.name}
      data-revoked={t.revokedAt ? "yes" : "no"}
    >
      <td>{t.name}</td>
      <td className="mono">{t.prefix}…</td>
      <td>
        <span className={`badge ${t.scope === "write" ? "warning" : "info"}`}>
          {t.scope === "write" ? "read + write" : "read"}
        </span>
      </td>
      <td>{t.createdBy}</td>
      <td>
        <LocalTime value={t.createdAt} />
      </td>
      <td>
        <LocalTime value={t.lastUsedAt} />
      </td>
      <td>
        {t.revokedAt ? (
          <span className="badge disabled">
            revoked <LocalTime value={t.revokedAt} />
          </span>
        ) : (
          <span className="badge ok">active</span>
        )}
      </td>
      <td>
        {t.revokedAt ? null : (
          <span className="actions">
            <ConfirmButton
              verb="Revoke"
              subject={t.name}
              confirming={revoking}
              disabled={pending}
              onClick={onRevoke}
              onCancel={onCancel}
              testId="token-revoke"
            />
          </span>
        )}
      </td>
    </tr>
  );
}
