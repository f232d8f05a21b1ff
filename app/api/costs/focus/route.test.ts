import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// GET /api/costs/focus through the real handler: who may call it, the team limit, bad queries,
// and both formats passing the FOCUS 1.2 check.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-focus-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Db = (typeof import("@/lib/db.ts"))["db"];
let db: Db;
let finance: TestSession;
let limited: TestSession;
let viewer: TestSession;
let GET: (req: Request, ctx: unknown) => Promise<Response>;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  const { sessionFor, signIn, cookieFrom, TEST_PASSWORD } = await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  finance = await sessionFor("finance");
  viewer = await sessionFor("viewer");
  const email = "focus-research@test.local";
  await createUser({ email, password: TEST_PASSWORD, role: "finance", teams: ["research"] });
  limited = {
    email,
    cookie: cookieFrom(await signIn(email, TEST_PASSWORD)),
    origin: publicOrigin(),
  };
  const { seedFocusLedger } = await import("@/lib/focus/test-ledger.ts");
  await seedFocusLedger(db);
  GET = (await import("./route.ts")).GET;
}, 60_000);
afterAll(async () => {
  await db.$disconnect();
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`])
    rmSync(f, { force: true });
});

function call(query: string, s?: TestSession): Promise<Response> {
  const headers: Record<string, string> = s ? { cookie: s.cookie, origin: s.origin } : {};
  return GET(new Request(`http://127.0.0.1/api/costs/focus${query}`, { headers }), {});
}

async function table(res: Response) {
  const { tableFromCsv, tableFromParquet } = await import("@/lib/focus/check.ts");
  return res.headers.get("content-type")?.startsWith("text/csv")
    ? tableFromCsv(await res.text())
    : tableFromParquet(await res.arrayBuffer());
}

describe("GET /api/costs/focus", () => {
  it("asks for a sign-in, and refuses a role without costs:read", async () => {
    const anon = await call("?month=2026-11");
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toContain("Bearer");
    expect((await call("?month=2026-11", viewer)).status).toBe(403);
  });

  it("streams CSV and Parquet that pass the FOCUS 1.2 check", async () => {
    const { checkFocusTable, formatIssues } = await import("@/lib/focus/check.ts");
    const csv = await call("?month=2026-11&granularity=hourly", finance);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(
      'attachment; filename="gpufleet-focus-1.2-2026-11-hourly.csv"',
    );
    expect(csv.headers.get("cache-control")).toBe("no-store");
    expect(csv.headers.get("x-gpufleet-unpriced-host-hours")).toBe("1");
    expect(csv.headers.get("x-gpufleet-unpriced-up-seconds")).toBe("3600");
    const t = await table(csv);
    expect(t.rows).toHaveLength(8);
    expect(formatIssues(checkFocusTable(t))).toEqual([]);

    const pq = await call("?format=parquet&from=2026-11-01&to=2026-11-30", finance);
    expect(pq.status).toBe(200);
    expect(pq.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(pq.headers.get("content-disposition")).toBe(
      'attachment; filename="gpufleet-focus-1.2-2026-11-01_2026-11-30-daily.parquet"',
    );
    const p = await table(pq);
    expect(p.rows).toHaveLength(5);
    expect(formatIssues(checkFocusTable(p))).toEqual([]);
  });

  it("gives a team-limited user only its team's rows, as the CSV export does", async () => {
    const res = await call("?month=2026-11&granularity=hourly", limited);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gpufleet-unpriced-host-hours")).toBe("0");
    const t = await table(res);
    expect(t.rows.length).toBeGreaterThan(0);
    expect(t.rows.every((r) => JSON.parse(String(r.Tags)).team === "research")).toBe(true);
    expect(new Set(t.rows.map((r) => r.ResourceName))).toEqual(new Set(["gpu-od-1", "gpu-spot-1"]));
    const pq = await table(await call("?month=2026-11&format=parquet", limited));
    expect(pq.rows.every((r) => (r.Tags as { team: string }).team === "research")).toBe(true);
  });

  it("answers a bad query with 400 and says what is wrong", async () => {
    const cases: [string, RegExp][] = [
      ["?format=xlsx", /format must be csv or parquet/],
      ["?granularity=weekly", /granularity must be daily or hourly/],
      ["?month=2026-13", /month must be YYYY-MM/],
      ["?month=2026-11&from=2026-11-01&to=2026-11-02", /not both/],
      ["?from=2026-11-01", /from and to go together/],
      ["?from=2026-11-05&to=2026-11-01", /to is before from/],
      ["?from=2025-01-01&to=2026-01-02", /at most 366 days/],
      ["?from=2026-02-30&to=2026-03-01", /real YYYY-MM-DD day/],
      ["?month=2026-11&month=2026-10", /more than once/],
      ["?months=2026-11", /months/],
    ];
    for (const [query, message] of cases) {
      const res = await call(query, finance);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string }).error, query).toMatch(message);
    }
  });
});
