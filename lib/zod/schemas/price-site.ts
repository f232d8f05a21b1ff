import { z } from "zod";

// Which of Tencent Cloud's two price lists an account buys from (issue 26): the admin settings
// name the accounts on the China site (CNY list); every other account is on the international site
// (USD list). An account is what a host's `cloud_account` label says (the account id its bill is
// under, e.g. Tencent's APPID). The settings form and PATCH /api/settings share this schema.

const accountId = z
  .string()
  .trim()
  .min(1, "an account id is not empty")
  .max(64, "an account id has at most 64 characters")
  .regex(/^[A-Za-z0-9._:-]+$/, "an account id is letters, digits and . _ : - (e.g. 1250000000)");

export const cloudAccountsSchema = z
  .array(accountId)
  .max(1000, "at most 1000 accounts")
  .refine((a) => new Set(a).size === a.length, "an account is named once");

/** "1250000000, 1250000001" or one per line → the list (empty entries dropped). */
export function splitAccounts(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
