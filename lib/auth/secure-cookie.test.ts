import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Behind https (GPUFLEET_PUBLIC_URL=https://…) the session cookie is Secure and __Secure- prefixed.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-secure-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  process.env.GPUFLEET_PUBLIC_URL = "https://gpufleet.example.com";
  return path;
});

let db: (typeof import("@/lib/db.ts"))["db"];

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
}, 60_000);
afterAll(async () => db.$disconnect());

describe("session cookie over https", () => {
  it("is Secure, httpOnly and SameSite=Lax", async () => {
    const { createUser } = await import("./users.ts");
    const { signIn, TEST_PASSWORD } = await import("@/lib/testing/auth.ts");
    await createUser({ email: "tls@test.local", password: TEST_PASSWORD, role: "viewer" });
    const res = await signIn("tls@test.local", TEST_PASSWORD);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token="));
    expect(cookie).toMatch(/^__Secure-gpufleet\.session_token=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});
