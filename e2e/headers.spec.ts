import { expect, test } from "@playwright/test";

// Every answer carries a Content-Security-Policy, router prefetches included (they skip proxy.ts,
// which sets the per-request nonce policy on everything else).

test("pages and router prefetches both carry a Content-Security-Policy", async ({ request }) => {
  const page = await request.get("/");
  expect(page.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  const prefetch = await request.get("/costs", {
    headers: { rsc: "1", "next-router-prefetch": "1" },
  });
  expect(prefetch.status()).toBeLessThan(500);
  expect(prefetch.headers()["content-security-policy"]).toBe(
    "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  );
  expect(prefetch.headers()["x-content-type-options"]).toBe("nosniff");
});
