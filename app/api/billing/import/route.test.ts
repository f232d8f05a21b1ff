import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The bill upload and the reconciliation read: finance only (401 signed out, 403 for a viewer and
// for a team-limited finance user, since a bill is account-wide), the raw file in a bill's content
// type (415 otherwise), a size cap (413), preview writes nothing, apply keeps the lines with one
// audit entry, a file that is not a bill is a 400 that says what was expected.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-billing-import-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

const BILL = readFileSync(
  new URL("../../../../lib/billing/fixtures/focus-aws.csv", import.meta.url),
);

const upload = (
  query: string,
  body: BodyInit,
  type = "text/csv",
  headers: Record<string, string> = {},
) =>
  new Request(`http://local/api/billing/import?${query}`, {
    method: "POST",
    headers: { "content-type": type, ...headers },
    body,
  });

type Route = typeof import("./route.ts");
type ReadRoute = typeof import("../reconcile/route.ts");
let raw: Route;
let as: (s: TestSession) => Route;
let read: (s: TestSession) => ReadRoute;
let finance: TestSession;
let viewer: TestSession;
let limited: TestSession;
let db: typeof import("@/lib/db.ts").db;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor, TEST_PASSWORD, cookieFrom, signIn } =
    await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  finance = await sessionFor("finance", "fin@test.local");
  viewer = await sessionFor("viewer");
  await createUser({
    email: "ml-fin@test.local",
    password: TEST_PASSWORD,
    role: "finance",
    teams: ["ml"],
  });
  limited = {
    email: "ml-fin@test.local",
    cookie: cookieFrom(await signIn("ml-fin@test.local", TEST_PASSWORD)),
    origin: publicOrigin(),
  };
  raw = await import("./route.ts");
  const readRoute = await import("../reconcile/route.ts");
  as = (s) => asUser(raw, s);
  read = (s) => asUser(readRoute, s);
  db = (await import("@/lib/db.ts")).db;
});
afterAll(async () => db.$disconnect());

const post = (route: Route, req: Request) => route.POST(req, undefined as never);

describe("POST /api/billing/import", () => {
  it("refuses the signed-out (401), viewers and team-limited finance users (403)", async () => {
    expect((await post(raw, upload("", BILL))).status).toBe(401);
    expect((await post(as(viewer), upload("", BILL))).status).toBe(403);
    const res = await post(as(limited), upload("", BILL));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/whole account/);
    expect(await db.billingImport.count()).toBe(0);
  });

  it("refuses other content types (415) and declared lengths over the 512 MiB cap (413)", async () => {
    const json = await post(as(finance), upload("", BILL, "application/json"));
    expect(json.status).toBe(415);
    expect(((await json.json()) as { error: string }).error).toMatch(
      /text\/csv, application\/gzip/,
    );
    const huge = upload("", "x", "text/csv", { "content-length": String(512 * 1024 * 1024 + 1) });
    expect((await post(as(finance), huge)).status).toBe(413);
  });

  it("previews without writing, then applies with one audit entry", async () => {
    const preview = await post(
      as(finance),
      upload("file=nov.csv.gz", gzipSync(BILL), "application/gzip"),
    );
    expect(preview.status).toBe(200);
    const p = (await preview.json()) as {
      dryRun: boolean;
      rowsKept: number;
      effectiveMicros: string;
    };
    expect(p).toMatchObject({ dryRun: true, rowsKept: 5, effectiveMicros: "880270546" });
    expect(await db.billingLine.count()).toBe(0);
    const apply = await post(as(finance), upload("file=nov.csv&mode=apply", BILL));
    expect(apply.status).toBe(200);
    expect(await db.billingLine.count()).toBe(28);
    const audits = await db.auditEvent.findMany({ where: { action: "billing.import" } });
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]?.detail ?? "{}")).toMatchObject({
      file: "nov.csv",
      rowsKept: 5,
      period: "2026-11",
    });
  });

  it("answers 400 for a file that is not a bill, or an empty body", async () => {
    const res = await post(as(finance), upload("", "name,size\na,1\n"));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/not a known billing export/);
    expect((await post(as(finance), upload("", ""))).status).toBe(400);
  });
});

describe("GET /api/billing/reconcile", () => {
  const get = (s: TestSession, q: string) =>
    read(s).GET(new Request(`http://local/api/billing/reconcile?${q}`), undefined as never);

  it("reconciles the imported month for finance, refusing team-limited users and bad months", async () => {
    const res = await get(finance, "month=2026-11");
    expect(res.status).toBe(200);
    const { reconciliationSchema } = await import("@/lib/zod/schemas/billing.ts");
    const r = reconciliationSchema.parse(await res.json());
    expect(r.total.effectiveMicros).toBe("880270546");
    expect(r.unmonitored).toHaveLength(3);
    expect((await get(limited, "month=2026-11")).status).toBe(403);
    expect((await get(finance, "month=2026-13")).status).toBe(400);
  });

  it("exports it as CSV whose text cells a spreadsheet will not run", async () => {
    const bad = Buffer.from(
      BILL.toString("utf8").replace(
        "i-0a1b2c3d4e5f60002,Instance",
        '"=HYPERLINK(""http://x"")-i-0a1b2c3d4e5f60002",Instance',
      ),
    );
    expect((await post(as(finance), upload("file=evil.csv&mode=apply", bad))).status).toBe(200);
    const csvRoute = await import("../reconcile.csv/route.ts");
    const { asUser } = await import("@/lib/testing/auth.ts");
    const res = await asUser(csvRoute, finance).GET(
      new Request("http://local/api/billing/reconcile.csv?month=2026-11"),
      undefined as never,
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`"'=HYPERLINK(""http://x"")-i-0a1b2c3d4e5f60002"`);
    expect(text.trim().split("\n").at(-1)).toMatch(/^total,/);
    expect(text).not.toMatch(/^"?=/m);
  });
});
