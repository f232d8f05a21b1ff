// Who may do what. Roles are cumulative: each one can do everything the one before it can.
// This module is pure (no server imports) so the navigation can hide what a role cannot open;
// the server enforces the same table in every route handler and page.

export const ROLES = ["viewer", "operator", "finance", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  viewer: "Viewer: fleet and instance pages",
  operator: "Operator: also acknowledges and snoozes alerts, acts on recommendations",
  finance: "Finance: also costs, budgets, CSV export, pricing catalogue",
  admin: "Admin: everything, including users, tokens, channels, rules and the audit log",
};

type PermissionSpec = {
  /** the least role that holds it */
  role: Role;
  /** true when it changes something (a read-only API token never holds it) */
  write: boolean;
  /** true when an API token may hold it at all */
  token: boolean;
};

export const PERMISSIONS = {
  "fleet:read": { role: "viewer", write: false, token: true },
  "alerts:read": { role: "operator", write: false, token: true },
  "alerts:act": { role: "operator", write: true, token: true },
  "recommendations:read": { role: "operator", write: false, token: true },
  "recommendations:act": { role: "operator", write: true, token: true },
  "rules:read": { role: "operator", write: false, token: true },
  "costs:read": { role: "finance", write: false, token: true },
  "budgets:write": { role: "finance", write: true, token: true },
  "pricing:read": { role: "finance", write: false, token: true },
  "pricing:write": { role: "finance", write: true, token: true },
  "compare:read": { role: "operator", write: false, token: true },
  "benchmarks:write": { role: "operator", write: true, token: true },
  "metrics:read": { role: "admin", write: false, token: true },
  "rules:write": { role: "admin", write: true, token: false },
  "policies:read": { role: "operator", write: false, token: true },
  "policies:write": { role: "admin", write: true, token: false },
  "channels:read": { role: "admin", write: false, token: false },
  "channels:write": { role: "admin", write: true, token: false },
  "users:admin": { role: "admin", write: true, token: false },
  "tokens:admin": { role: "admin", write: true, token: false },
  "settings:write": { role: "admin", write: true, token: false },
  "audit:read": { role: "admin", write: false, token: false },
} as const satisfies Record<string, PermissionSpec>;

export type Permission = keyof typeof PERMISSIONS;
export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(PERMISSIONS[permission].role);
}

export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** API tokens never administer (users, tokens, channels, rules, audit); read tokens never write. */
export function tokenAllows(scope: TokenScope, permission: Permission): boolean {
  const spec: PermissionSpec = PERMISSIONS[permission];
  if (!spec.token) return false;
  return scope === "write" || !spec.write;
}

/** The pages, each with what it takes to open it (checked by requirePage and by a test). */
export const PAGE_PERMISSIONS = {
  "/": "fleet:read",
  "/instances/[id]": "fleet:read",
  "/my-gpus": "fleet:read",
  "/alerts": "alerts:read",
  "/recommendations": "recommendations:read",
  "/costs": "costs:read",
  "/costs/reconcile": "costs:read",
  "/compare": "compare:read",
  "/settings": "budgets:write",
  "/settings/pricing": "budgets:write",
  "/admin": "users:admin",
} as const satisfies Record<string, Permission>;

export type PagePath = keyof typeof PAGE_PERMISSIONS;
