import { NextResponse, type NextRequest } from "next/server";
import { REQUEST_PATH_HEADER } from "./lib/auth/next-path.ts";

// Security headers on every response. The Content-Security-Policy carries a fresh nonce per
// request: Next puts it on its own scripts, so no inline script runs without it ('strict-dynamic'
// lets those scripts load the page's chunks). Styles keep 'unsafe-inline' because React and
// Recharts set style attributes; that allows no script. Sign-in and roles are checked by each
// page and route handler, not here.

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  // the page's own path and query, so a page that asks for a login can come back to it exactly
  headers.set(REQUEST_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}

// Not the price-list upload: Next buffers a second copy of every body the proxy sees (up to
// next.config's proxyClientMaxBodySize), and a JSON answer needs no page nonce; sixteen MiB uploads
// then cost the server one copy, read straight from the socket.
export const config = {
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico|icon.svg|api/pricing/import$).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
