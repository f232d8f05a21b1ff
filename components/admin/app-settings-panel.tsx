"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminQueries, appSettingsSchema, type AppSettingsDto } from "@/lib/queries/admin.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { TencentSiteField } from "./tencent-site-field.tsx";

/** Run-time settings kept in the store (every replica sees the same value). */
export function AppSettingsPanel() {
  const q = useQuery(adminQueries.settings());
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (patch: Partial<AppSettingsDto>) =>
      sendJson("PATCH", "/api/settings", patch, appSettingsSchema),
    onSuccess: (s) => {
      if (s) client.setQueryData(adminQueries.settings().queryKey, s);
    },
    onSettled: () => client.invalidateQueries({ queryKey: adminQueries.all() }),
  });
  // show the value being saved until the server answers
  const allow = save.isPending
    ? (save.variables.allowPrivateWebhookTargets ?? q.data?.allowPrivateWebhookTargets ?? false)
    : (q.data?.allowPrivateWebhookTargets ?? false);
  const pseudonyms = save.isPending
    ? (save.variables.pseudonymizeHoldersForViewers ??
      q.data?.pseudonymizeHoldersForViewers ??
      false)
    : (q.data?.pseudonymizeHoldersForViewers ?? false);
  return (
    <section
      className="panel"
      aria-labelledby="app-settings-title"
      data-testid="app-settings-panel"
    >
      <div className="panel-head">
        <h2 id="app-settings-title">Application settings</h2>
        <span className="muted small">apply to every user and replica at once</span>
      </div>
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      <label className="admin-check">
        <input
          type="checkbox"
          checked={allow}
          disabled={!q.data || save.isPending}
          onChange={(e) => save.mutate({ allowPrivateWebhookTargets: e.target.checked })}
          aria-describedby="private-webhooks-warning"
          data-testid="allow-private-webhooks"
        />
        <span>
          Allow webhook channels to target private, loopback and link-local addresses (including the
          app itself)
        </span>
      </label>
      <p
        id="private-webhooks-warning"
        className={allow ? "banner admin-warning" : "muted small admin-warning"}
      >
        {allow ? <strong>On.</strong> : null} Anyone who can edit notification channels can then
        make this server send requests into your internal network, its cloud metadata endpoint and
        the app&apos;s own API. Turn it on only when your webhook receivers live on a private
        network you trust.
      </p>
      <label className="admin-check">
        <input
          type="checkbox"
          checked={pseudonyms}
          disabled={!q.data || save.isPending}
          onChange={(e) => save.mutate({ pseudonymizeHoldersForViewers: e.target.checked })}
          data-testid="pseudonymize-holders"
        />
        <span>
          Show GPU holders (user names, pods, containers) to viewers as stable pseudonyms instead of
          names
        </span>
      </label>
      <TencentSiteField
        accounts={q.data?.tencentChinaSiteAccounts ?? null}
        saving={save.isPending}
        onSave={(tencentChinaSiteAccounts) => save.mutate({ tencentChinaSiteAccounts })}
      />
      {save.isPending ? (
        <p className="muted small" role="status">
          Saving…
        </p>
      ) : null}
      {save.error ? (
        <p className="field-error" role="alert" data-testid="app-settings-error">
          Not saved: {save.error.message}
        </p>
      ) : null}
    </section>
  );
}
