// Webhook URLs carry secrets (basic-auth userinfo, ?token=…, Slack's token path). Every URL or
// error message that reaches a log, an attempt record or the API goes through these first.

const MASK = "***";

/** Long mixed letter+digit path segments are treated as tokens (Slack, Discord, Teams hooks). */
function looksLikeToken(segment: string): boolean {
  return segment.length >= 16 && /[A-Za-z]/.test(segment) && /\d/.test(segment);
}

function tokenSegment(segment: string, i: number, all: string[]): boolean {
  // hooks.slack.com/services/T…/B…/<token>: everything after "services" is secret.
  return looksLikeToken(segment) || (i > 0 && all[i - 1] === "services" && segment.length > 0);
}

export function isHttpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/** https://user:pass@h/services/T1/B2/xyz?token=abc → https://***@h/services/***\/***\/***?token=*** */
export function redactUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "[invalid URL]";
  }
  const userinfo = u.username !== "" || u.password !== "";
  u.username = "";
  u.password = "";
  for (const key of [...new Set(u.searchParams.keys())]) u.searchParams.set(key, MASK);
  const parts = u.pathname.split("/");
  const services = parts.indexOf("services");
  u.pathname = parts
    .map((p, i) =>
      (services >= 0 && i > services && p !== "") || tokenSegment(p, i, parts) ? MASK : p,
    )
    .join("/");
  const text = u.toString().replaceAll("%2A%2A%2A", MASK);
  return userinfo ? text.replace("://", `://${MASK}@`) : text;
}

/** Replaces every secret part of `url` that appears in `text` (e.g. an error naming the URL). */
export function redactText(text: string, url: string): string {
  let out = text;
  const whole = new Set<string>([url]);
  const secrets = new Set<string>();
  try {
    const u = new URL(url);
    whole.add(u.href);
    if (u.username) secrets.add(decodeURIComponent(u.username));
    if (u.password) secrets.add(decodeURIComponent(u.password));
    for (const v of u.searchParams.values()) if (v.length >= 3) secrets.add(v);
    const parts = u.pathname.split("/");
    parts.forEach((p, i) => {
      if (p.length >= 3 && tokenSegment(p, i, parts)) secrets.add(p);
    });
  } catch {
    /* not a URL: only the literal string is replaced */
  }
  for (const w of [...whole].sort((a, b) => b.length - a.length))
    out = out.split(w).join(redactUrl(url));
  const sorted = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  for (const s of sorted) out = out.split(s).join(MASK);
  return out;
}
