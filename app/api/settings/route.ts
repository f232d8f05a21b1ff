import { getSettings, setSetting, settingsSchema } from "@/lib/settings/app-settings.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

export const GET = handle("settings:write", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await getSettings());
});

export const PATCH = handle("settings:write", async (req: Request) => {
  const patch = await readBody(req, settingsSchema);
  if (patch.allowPrivateWebhookTargets !== undefined) {
    await setSetting("allowPrivateWebhookTargets", patch.allowPrivateWebhookTargets);
  }
  if (patch.peopleEmailPattern !== undefined) {
    await setSetting("peopleEmailPattern", patch.peopleEmailPattern);
  }
  if (patch.pseudonymizeHoldersForViewers !== undefined) {
    await setSetting("pseudonymizeHoldersForViewers", patch.pseudonymizeHoldersForViewers);
  }
  if (patch.tencentChinaSiteAccounts !== undefined) {
    await setSetting("tencentChinaSiteAccounts", patch.tencentChinaSiteAccounts);
  }
  return json(await getSettings());
});
