import { personSchema } from "@/lib/zod/schemas/person.ts";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { ROLES, TOKEN_SCOPES } from "@/lib/auth/roles.ts";
import { isoTimeSchema } from "@/lib/zod/schemas/common.ts";
import { pricingListSchema } from "@/lib/zod/schemas/pricing.ts";
import { fetchJson, retryTransient } from "./fetch-json.ts";

// The admin page (users, API tokens, run-time settings, audit log) and the pricing catalogue that
// finance reads on the settings page. Response shapes mirror the route handlers in app/api.

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  teams: z.array(z.string()),
  createdAt: isoTimeSchema,
});
export type UserDto = z.infer<typeof userSchema>;
export const userListSchema = z.object({ users: z.array(userSchema) });

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  createdBy: z.string(),
  createdAt: isoTimeSchema,
  lastUsedAt: isoTimeSchema.nullable(),
  revokedAt: isoTimeSchema.nullable(),
});
export type TokenDto = z.infer<typeof tokenSchema>;
export const tokenListSchema = z.object({ tokens: z.array(tokenSchema) });
/** The create answer: the only time the secret itself travels. */
export const createdTokenSchema = tokenSchema.extend({ token: z.string() });
export type CreatedTokenDto = z.infer<typeof createdTokenSchema>;

export const appSettingsSchema = z.object({
  allowPrivateWebhookTargets: z.boolean(),
  pseudonymizeHoldersForViewers: z.boolean(),
  peopleEmailPattern: z.string().nullable(),
  tencentChinaSiteAccounts: z.array(z.string()),
});
export type AppSettingsDto = z.infer<typeof appSettingsSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: isoTimeSchema,
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEntryDto = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema) });

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  /** action prefix, e.g. "users." */
  action: string;
  /** the actor exactly as logged: an email or "token:<name>" */
  actor: string;
}

export function auditUrl(f: AuditFilters, before?: string, limit = AUDIT_PAGE_SIZE): string {
  const p = new URLSearchParams({ limit: String(limit) });
  if (before) {
    // the cursor is "<at>|<id>": entries sharing the last one's millisecond are not skipped
    const [at, id] = before.split("|");
    if (at) p.set("before", at);
    if (id) p.set("beforeId", id);
  }
  const action = f.action.trim();
  const actor = f.actor.trim();
  if (action) p.set("action", action);
  if (actor) p.set("actor", actor);
  return `/api/audit?${p.toString()}`;
}

/** The next page starts before the last entry shown; a short page means there is no more. */
export function nextAuditCursor(
  page: { entries: readonly { at: string; id: string }[] },
  limit = AUDIT_PAGE_SIZE,
): string | undefined {
  if (page.entries.length < limit) return undefined;
  const last = page.entries.at(-1);
  return last ? `${last.at}|${last.id}` : undefined;
}

export const adminQueries = {
  all: () => ["admin"] as const,
  users: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), "users"] as const,
      queryFn: ({ signal }) => fetchJson("/api/users", userListSchema, signal),
      retry: retryTransient,
    }),
  tokens: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), "tokens"] as const,
      queryFn: ({ signal }) => fetchJson("/api/tokens", tokenListSchema, signal),
      // "last used" moves while scripts run
      refetchInterval: 60_000,
      retry: retryTransient,
    }),
  /** the people directory (issue 24) */
  people: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), "people"] as const,
      queryFn: ({ signal }) => fetchJson("/api/people", z.array(personSchema), signal),
      retry: retryTransient,
    }),
  settings: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), "settings"] as const,
      queryFn: ({ signal }) => fetchJson("/api/settings", appSettingsSchema, signal),
      retry: retryTransient,
    }),
  audit: (f: AuditFilters) =>
    infiniteQueryOptions({
      queryKey: [...adminQueries.all(), "audit", f] as const,
      queryFn: ({ pageParam, signal }) =>
        fetchJson(auditUrl(f, pageParam), auditListSchema, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => nextAuditCursor(last),
      retry: retryTransient,
    }),
};

export const pricingQueries = {
  all: () => ["pricing"] as const,
  catalogue: (retired: "exclude" | "include" = "exclude") =>
    queryOptions({
      queryKey: [...pricingQueries.all(), "catalogue", retired] as const,
      queryFn: ({ signal }) =>
        fetchJson(`/api/pricing?retired=${retired}`, pricingListSchema, signal),
      // the catalogue changes only when someone edits prices
      staleTime: 5 * 60_000,
      retry: retryTransient,
    }),
};
