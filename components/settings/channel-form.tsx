"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { settingsQueries } from "@/lib/queries/settings.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import {
  CHANNEL_KIND_HELP,
  CHANNEL_KIND_LABELS,
  CHANNEL_KINDS,
  channelInputSchema,
  channelSchema,
  type ChannelDto,
} from "@/lib/zod/schemas/channel.ts";
import { RULE_KIND_LABELS, RULE_KINDS, RULE_SCOPES } from "@/lib/zod/schemas/rule.ts";
import { Field, FormError, requestErrors, zodErrors, type Errors } from "./form-bits.tsx";
import { EmailFields, emailFormValues, emailInput } from "./email-fields.tsx";

// The stored URL never comes back from the API (it may hold a token): when editing, an empty URL
// field keeps it, and the client-side check uses a stand-in.
const KEEP_URL = "https://stored-url.invalid/";

export function ChannelForm({
  channel,
  onDone,
}: {
  channel: ChannelDto | null;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const [v, setV] = useState({
    name: channel?.name ?? "",
    kind: channel?.kind ?? "webhook",
    url: "",
    scopeKind: channel?.scopeKind ?? "fleet",
    scopeValue: channel?.scopeValue ?? "",
    kinds: channel?.kinds ?? [],
    enabled: channel?.enabled ?? true,
  });
  const [email, setEmail] = useState(emailFormValues(channel?.email));
  const [errors, setErrors] = useState<Errors>({});
  const api = v.kind === "alertmanager_api";
  const mail = v.kind === "email";
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      channel
        ? sendJson("PATCH", `/api/channels/${encodeURIComponent(channel.id)}`, body, channelSchema)
        : sendJson("POST", "/api/channels", body, channelSchema),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: settingsQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    if (mail) {
      const { url: _url, ...rest } = v;
      const raw = {
        ...rest,
        scopeValue: v.scopeKind === "fleet" ? "" : v.scopeValue,
        email: emailInput(email),
      };
      const parsed = channelInputSchema.safeParse(raw);
      if (!parsed.success) {
        setErrors(zodErrors(parsed.error));
        return;
      }
      setErrors({});
      save.mutate(parsed.data);
      return;
    }
    const keep = channel !== null && channel.kind !== "email" && v.url.trim() === "";
    const raw = { ...v, scopeValue: v.scopeKind === "fleet" ? "" : v.scopeValue };
    const parsed = channelInputSchema.safeParse(keep ? { ...raw, url: KEEP_URL } : raw);
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    const { url, ...rest } = parsed.data;
    save.mutate(keep ? rest : { ...rest, url });
  };
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="channel-form"
    >
      <FormError errors={errors} />
      <Field label="Name" error={errors.name}>
        <input
          type="text"
          value={v.name}
          onChange={(e) => setV({ ...v, name: e.target.value })}
          aria-invalid={errors.name ? true : undefined}
          data-testid="channel-name"
        />
      </Field>
      <Field label="Kind" error={errors.kind} hint={CHANNEL_KIND_HELP[v.kind]}>
        <select
          value={v.kind}
          onChange={(e) => setV({ ...v, kind: e.target.value as ChannelDto["kind"] })}
          data-testid="channel-kind"
        >
          {CHANNEL_KINDS.map((k) => (
            <option key={k} value={k}>
              {CHANNEL_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </Field>
      {mail ? (
        <EmailFields v={email} set={setEmail} errors={errors} />
      ) : (
        <Field
          label={api ? "Alertmanager URL" : "Webhook URL"}
          error={errors.url}
          hint={
            channel
              ? `stored: ${channel.url} (leave empty to keep)`
              : api
                ? "its base URL; gpufleet POSTs to <base>/api/v2/alerts"
                : "http:// or https:// only"
          }
        >
          <input
            type="url"
            value={v.url}
            placeholder={
              channel
                ? "unchanged"
                : api
                  ? "http://alertmanager:9093"
                  : "https://hooks.example.com/…"
            }
            onChange={(e) => setV({ ...v, url: e.target.value })}
            aria-invalid={errors.url ? true : undefined}
            data-testid="channel-url"
          />
        </Field>
      )}
      <Field label="Route alerts of" error={errors.scopeKind}>
        <select
          value={v.scopeKind}
          onChange={(e) => setV({ ...v, scopeKind: e.target.value as ChannelDto["scopeKind"] })}
          data-testid="channel-scopeKind"
        >
          {RULE_SCOPES.map((s) => (
            <option key={s} value={s}>
              {s === "fleet" ? "the whole fleet" : `one ${s}`}
            </option>
          ))}
        </select>
      </Field>
      {v.scopeKind !== "fleet" ? (
        <Field label={`Which ${v.scopeKind}`} error={errors.scopeValue}>
          <input
            type="text"
            value={v.scopeValue}
            onChange={(e) => setV({ ...v, scopeValue: e.target.value })}
            aria-invalid={errors.scopeValue ? true : undefined}
            data-testid="channel-scopeValue"
          />
        </Field>
      ) : null}
      <fieldset className="checks">
        <legend>Alert kinds (none ticked: all)</legend>
        {RULE_KINDS.map((k) => (
          <label key={k}>
            <input
              type="checkbox"
              checked={v.kinds.includes(k)}
              onChange={(e) =>
                setV({
                  ...v,
                  kinds: e.target.checked ? [...v.kinds, k] : v.kinds.filter((x) => x !== k),
                })
              }
            />
            {RULE_KIND_LABELS[k]}
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <label className="checks">
          <input
            type="checkbox"
            checked={v.enabled}
            onChange={(e) => setV({ ...v, enabled: e.target.checked })}
            data-testid="channel-enabled"
          />
          enabled
        </label>
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="channel-save"
        >
          {channel ? "Save channel" : "Add channel"}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
