import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@/app/api/_lib/handle.ts";
import { MAX_UPLOAD_BYTES } from "@/lib/pricing/import/schema.ts";
import nextConfig from "./next.config.ts";
import { config as proxyConfig } from "./proxy.ts";

// Next buffers each request body for proxy.ts and, past experimental.proxyClientMaxBodySize
// (10 MB when unset), passes the route only the first part with a log line: an 11.5 MB price
// list was imported without its last 7,000 rows. The limit must exceed every route's own cap,
// so that a body over a cap still arrives over it and the route answers 413. The upload itself
// skips the proxy: its 16 MiB are then held once, not twice.

describe("next.config", () => {
  it("lets bodies through to the routes whole, up to past the largest route cap", () => {
    const limit = nextConfig.experimental?.proxyClientMaxBodySize;
    expect(typeof limit).toBe("number");
    expect(limit as number).toBeGreaterThan(Math.max(MAX_UPLOAD_BYTES, MAX_BODY_BYTES));
  });

  it("keeps the price-list upload out of proxy.ts, so its body is not buffered twice", () => {
    const source = proxyConfig.matcher[0]?.source ?? "";
    const runs = (path: string) => new RegExp(`^${source}$`).test(path);
    expect(runs("/api/pricing/import")).toBe(false);
    expect(runs("/api/pricing")).toBe(true);
    expect(runs("/api/pricing/rates")).toBe(true);
    expect(runs("/settings")).toBe(true);
  });
});
