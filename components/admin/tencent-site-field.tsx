"use client";

import { useState } from "react";
import { cloudAccountsSchema, splitAccounts } from "@/lib/zod/schemas/price-site.ts";

/**
 * Which Tencent Cloud accounts buy from the China site's CNY list (issue 26); every other account
 * is priced from the international site's USD list. An account is a host's `cloud_account` label.
 * A change prices hours from then on; re-price past months for it to reach them.
 */
export function TencentSiteField({
  accounts,
  saving,
  onSave,
}: {
  accounts: readonly string[] | null;
  saving: boolean;
  onSave: (accounts: string[]) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? (accounts ?? []).join(", ");
  const parsed = cloudAccountsSchema.safeParse(splitAccounts(text));
  const error = parsed.success
    ? null
    : (parsed.error.issues[0]?.message ?? "not a list of accounts");
  return (
    <form
      className="admin-field"
      onSubmit={(e) => {
        e.preventDefault();
        if (!parsed.success) return;
        onSave(parsed.data);
        setDraft(null);
      }}
    >
      <label htmlFor="tencent-china-accounts">
        Tencent Cloud accounts on the China site (CNY list), by the hosts&apos;{" "}
        <code>cloud_account</code> label; others use the international USD list
      </label>
      <input
        id="tencent-china-accounts"
        type="text"
        value={text}
        placeholder="e.g. 1250000000, 1250000001"
        disabled={accounts === null || saving}
        onChange={(e) => setDraft(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby="tencent-china-accounts-help"
        data-testid="tencent-china-accounts"
      />
      <button type="submit" disabled={accounts === null || saving || draft === null || !!error}>
        Save accounts
      </button>
      <p id="tencent-china-accounts-help" className={error ? "field-error" : "muted small"}>
        {error ??
          "Applies to hours from now on; re-price a past month on the settings page for it to change that month."}
      </p>
    </form>
  );
}
