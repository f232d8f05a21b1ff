import type { NextConfig } from "next";

/**
 * How much of a request body proxy.ts lets through. Next buffers a body for the proxy and, past
 * this size, silently hands the route only the first part (10 MB by default). It is the largest
 * body any route accepts, the price-list upload's 16 MiB (MAX_UPLOAD_BYTES), plus 1 MiB: a body
 * over a route's cap then still reaches the route over that cap, which refuses it with a 413;
 * none is ever cut to fit.
 */
const PROXY_BODY_LIMIT_BYTES = 17 * 1024 * 1024;

/** The Content-Security-Policy of router prefetch responses (no document, so nothing allowed). */
const PREFETCH_CSP = "default-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden() renders app/forbidden.tsx with a 403 when a role may not open a page
  experimental: { authInterrupts: true, proxyClientMaxBodySize: PROXY_BODY_LIMIT_BYTES },
  // every response; the Content-Security-Policy (with its per-request nonce) comes from proxy.ts
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
      {
        // Router prefetches skip proxy.ts (a nonce per prefetch would be wasted work: they carry
        // RSC data, never a document), so they get a fixed policy that allows nothing to run
        source: "/:path*",
        has: [{ type: "header", key: "next-router-prefetch" }],
        headers: [{ key: "Content-Security-Policy", value: PREFETCH_CSP }],
      },
    ];
  },
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg"],
};

export default nextConfig;
