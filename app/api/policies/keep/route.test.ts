import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The public keep route, as an attacker meets it: no sign-in needed, JSON only, a small body, one
// answer (404, the same text) for a forged, unknown, used or malformed token, and a limit per
// client address. A good token keeps the host once.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-keep-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Db = (typeof import("@/lib/db.ts"))["db"];
type Handler = (req: Request) => Promise<Response>;
let db: Db;
let POST: Handler;
let token = "";

function keep(body: unknown, ip: string, type = "application/json"): Promise<Response> {
  return POST(
    new Request("http://127.0.0.1:3000/api/policies/keep", {
      method: "POST",
      headers: { "content-type": type, "x-forwarded-for": ip },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  POST = (await import("./route.ts")).POST as Handler;
  const { issueKeepLinks } = await import("@/lib/policies/keep-link.ts");
  const host = await db.host.create({ data: { hostname: "gpu-k", state: "up" } });
  const policy = await db.policy.create({ data: { name: "p", mode: "active" } });
  const e = await db.policyEpisode.create({
    data: { policyId: policy.id, hostId: host.id, idleSince: new Date(), warnings: 2 },
  });
  const links = await issueKeepLinks(db, e, new Date(Date.now() + 3_600_000));
  token = links.find((l) => l.hours === 4)?.token ?? "";
}, 60_000);
afterAll(async () => db.$disconnect());

describe("POST /api/policies/keep", () => {
  it("refuses a forged, an unknown and a malformed token with one and the same answer", async () => {
    const [nonce = "", mac = ""] = token.split(".");
    const forged = `${nonce}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
    const unknown = `${"x".repeat(22)}.${mac}`;
    const answers = [];
    for (const t of [forged, unknown, "nope", `${token}x`]) {
      const res = await keep({ token: t }, "198.51.100.1");
      answers.push([res.status, await res.json()]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([
      404,
      { error: expect.stringContaining("not valid"), code: "not_found" },
    ]);
  });

  it("takes JSON only, and a token only", async () => {
    expect((await keep(`token=${token}`, "198.51.100.2", "text/plain")).status).toBe(415);
    const extra = await keep({ token, hours: 999 }, "198.51.100.2");
    expect(extra.status).toBe(400);
    // over 1 KiB is refused, with a declared length or streamed without one
    expect((await keep({ token: "x".repeat(2048) }, "198.51.100.2")).status).toBe(413);
    const streamed = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(JSON.stringify({ token: "x".repeat(4096) })));
        c.close();
      },
    });
    const chunked = await POST(
      new Request("http://127.0.0.1:3000/api/policies/keep", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.2" },
        body: streamed,
        duplex: "half",
      } as RequestInit),
    );
    expect(chunked.status).toBe(413);
  });

  it("keeps the host with a good token, once, without signing in", async () => {
    const ok = await keep({ token }, "198.51.100.3");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ hostname: "gpu-k", hours: 4 });
    expect((await keep({ token }, "198.51.100.3")).status).toBe(404);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "policy.keep" } });
    expect(audit).toMatchObject({ actor: "keep-link", target: "gpu-k", ip: "198.51.100.3" });
  });

  it("limits attempts per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await keep({ token: "x" }, "198.51.100.4")).status);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // another address is not held back
    expect((await keep({ token: "x" }, "198.51.100.5")).status).toBe(404);
  });
});
