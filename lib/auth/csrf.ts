import { trustedOrigins } from "./auth.ts";

// Cross-site request refusal for cookie-authenticated mutations. Browsers send Origin on every
// cross-origin POST/PATCH/DELETE and Sec-Fetch-Site on all requests; a page on another site can
// forge neither. Token (Bearer) requests carry no ambient credentials and skip this.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/** Why a state-changing request looks cross-site, or null when it is same-origin. */
export function crossSiteReason(req: Request, allowed: string[] = trustedOrigins()): string | null {
  const site = req.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  }
  const origin = req.headers.get("origin");
  if (origin === null) {
    return site === "same-origin" ? null : "cross-site request refused (no Origin header)";
  }
  const host = req.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `cross-site request refused (bad Origin ${JSON.stringify(origin)})`;
  }
  if (allowed.includes(origin) || (host !== null && originHost === host)) return null;
  return `cross-site request refused (Origin ${origin})`;
}
