import "server-only";
import { z } from "zod";
import { db, type Db } from "@/lib/db.ts";
import { emailPatternSchema } from "@/lib/zod/schemas/person.ts";
import { cloudAccountsSchema } from "@/lib/zod/schemas/price-site.ts";

// Settings an admin changes at run time, kept in the store so every replica sees the same value.

const SETTINGS = {
  /** Webhook channels may target private, loopback, link-local and the app's own addresses. */
  allowPrivateWebhookTargets: z.boolean(),
  /** Viewers see GPU holders (personal data) as stable pseudonyms instead of names (issue 24). */
  pseudonymizeHoldersForViewers: z.boolean(),
  /** The people directory's address pattern for holders it has no entry for (null: none). */
  peopleEmailPattern: emailPatternSchema.nullable(),
  /** Tencent Cloud accounts (a host's cloud_account label) that buy from the China site's CNY
   * list; every other Tencent account is priced from the international site's USD list. */
  tencentChinaSiteAccounts: cloudAccountsSchema,
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]>;

const DEFAULTS: { [K in SettingKey]: SettingValue<K> } = {
  allowPrivateWebhookTargets: false,
  pseudonymizeHoldersForViewers: false,
  peopleEmailPattern: null,
  tencentChinaSiteAccounts: [],
};

export const settingsSchema = z.strictObject({
  allowPrivateWebhookTargets: SETTINGS.allowPrivateWebhookTargets.optional(),
  pseudonymizeHoldersForViewers: SETTINGS.pseudonymizeHoldersForViewers.optional(),
  peopleEmailPattern: SETTINGS.peopleEmailPattern.optional(),
  tencentChinaSiteAccounts: SETTINGS.tencentChinaSiteAccounts.optional(),
});

export async function getSetting<K extends SettingKey>(key: K): Promise<SettingValue<K>> {
  return getSettingFrom(db, key);
}

/** getSetting on a given store (the price loader takes one). */
export async function getSettingFrom<K extends SettingKey>(
  client: Db,
  key: K,
): Promise<SettingValue<K>> {
  const row = await client.appSetting.findUnique({ where: { key } });
  if (!row) return DEFAULTS[key];
  const parsed = SETTINGS[key].safeParse(JSON.parse(row.value));
  if (parsed.success) return parsed.data as SettingValue<K>;
  console.error(`[settings] stored value of ${key} is invalid; using the default`);
  return DEFAULTS[key];
}

export async function getSettings(): Promise<{ [K in SettingKey]: SettingValue<K> }> {
  return {
    allowPrivateWebhookTargets: await getSetting("allowPrivateWebhookTargets"),
    pseudonymizeHoldersForViewers: await getSetting("pseudonymizeHoldersForViewers"),
    peopleEmailPattern: await getSetting("peopleEmailPattern"),
    tencentChinaSiteAccounts: await getSetting("tencentChinaSiteAccounts"),
  };
}

export async function setSetting<K extends SettingKey>(
  key: K,
  value: SettingValue<K>,
): Promise<void> {
  const text = JSON.stringify(SETTINGS[key].parse(value));
  await db.appSetting.upsert({
    where: { key },
    create: { key, value: text },
    update: { value: text },
  });
}
