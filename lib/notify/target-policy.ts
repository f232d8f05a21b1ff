import "server-only";
import { checkWebhookTarget } from "../net/webhook-target.ts";
import { getSetting } from "../settings/app-settings.ts";

// The admin's "allow private webhook targets" setting, read only when a target would otherwise be
// refused, so that the common case (a public receiver) costs no settings query.

export type AllowPrivate = () => Promise<boolean>;

export const adminAllowsPrivate: AllowPrivate = () => getSetting("allowPrivateWebhookTargets");

export const PRIVATE_TARGETS_HINT =
  "An admin can allow private webhook targets in the admin settings.";

export type Vetted = { ok: true; allowPrivate: boolean } | { ok: false; reason: string };

/** Whether `url` may be sent to now, and under which policy the connection must then run. */
export async function vetTarget(
  url: string,
  allowPrivate: AllowPrivate = adminAllowsPrivate,
  check: typeof checkWebhookTarget = checkWebhookTarget,
): Promise<Vetted> {
  const strict = await check(url, { allowPrivate: false });
  if (strict.ok) return { ok: true, allowPrivate: false };
  if (await allowPrivate()) return { ok: true, allowPrivate: true };
  return strict;
}

/** What a user sees when a target is refused. */
export function refusedMessage(reason: string): string {
  return `webhook target refused: ${reason}. ${PRIVATE_TARGETS_HINT}`;
}

/** Reads the setting at most once, for a delivery run that checks many targets. */
export function once(read: AllowPrivate): AllowPrivate {
  let value: Promise<boolean> | null = null;
  return () => (value ??= read());
}
