import { ROLE_LABELS, type Role } from "@/lib/auth/roles.ts";

// Pure helpers of the admin page (tested in admin-bits.test.ts).

/** "ml, research,, ml " → ["ml", "research"]: trimmed, empties dropped, first spelling kept. */
export function parseTeamsText(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(",")) {
    const t = part.trim();
    if (t !== "" && !out.includes(t)) out.push(t);
  }
  return out;
}

export function teamsText(teams: readonly string[]): string {
  return teams.join(", ");
}

/** "Viewer" from "Viewer: fleet and instance pages". */
export function roleName(role: Role): string {
  const label = ROLE_LABELS[role];
  const colon = label.indexOf(":");
  return colon > 0 ? label.slice(0, colon) : label;
}

/** An audit entry's detail on one line; "" when it has none. */
export function compactDetail(detail: Record<string, unknown>): string {
  if (Object.keys(detail).length === 0) return "";
  try {
    return JSON.stringify(detail);
  } catch {
    return "(unreadable)";
  }
}

/** Per-field errors of a list field ("teams.0") reported once, on the field itself. */
export function foldListErrors(
  errors: Record<string, string>,
  field: string,
): Record<string, string> {
  if (field in errors) return errors;
  const hit = Object.entries(errors).find(([k]) => k.startsWith(`${field}.`));
  return hit ? { ...errors, [field]: hit[1] } : errors;
}

/** The app's base URL without a trailing slash; a placeholder before the browser knows it. */
export function baseUrl(origin: string | null | undefined): string {
  const o = (origin ?? "").replace(/\/+$/, "");
  return o === "" || o === "null" ? "https://gpufleet.example.com" : o;
}

export function curlExample(origin: string, token: string): string {
  return `curl -H "Authorization: Bearer ${token}" ${baseUrl(origin)}/api/fleet`;
}

/** A Prometheus scrape job for the app's own metrics, authenticated with the token. */
export function prometheusScrapeExample(origin: string, token: string): string {
  let scheme = "https";
  let host = "gpufleet.example.com";
  try {
    const u = new URL(baseUrl(origin));
    scheme = u.protocol.replace(/:$/, "");
    host = u.host;
  } catch {
    // keep the placeholder
  }
  return [
    "scrape_configs:",
    "  - job_name: gpufleet-app",
    "    metrics_path: /api/metrics",
    `    scheme: ${scheme}`,
    "    authorization:",
    `      credentials: ${token}`,
    "    static_configs:",
    `      - targets: ["${host}"]`,
    "",
  ].join("\n");
}
