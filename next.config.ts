import type { NextConfig } from "next";

/** The Content-Security-Policy of router prefetch responses (no document, so nothing allowed). */
const PREFETCH_CSP = "default-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden() renders app/forbidden.tsx with a 403 when a role may not open a page
  experimental: { authInterrupts: true },
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
