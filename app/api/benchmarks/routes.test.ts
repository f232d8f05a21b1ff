import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// Benchmark results through the API: operators and finance write (viewers 403, signed-out 401),
// fields are validated (400 naming them), duplicates are 409, a CSV with a bad line is refused
// naming the line and writes nothing, bodies over 1 MiB are 413, changes are audited, and each
// result carries its cost per unit of work at today's catalogue prices.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-bench-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Routes = {
  list: typeof import("./route.ts");
  item: typeof import("./[id]/route.ts");
  upload: typeof import("./import/route.ts");
};
let raw: Routes;
let asOperator: Routes;
let asViewer: Routes;
let db: typeof import("@/lib/db.ts").db;

const HEADER = "provider,instanceType,workload,unit,value,source,sourceDate,note";
const result = {
  provider: "aws",
  instanceType: "p5.48xlarge",
  workload: "Llama 2 70B offline",
  unit: "tokens/s",
  value: 24525,
  source: "https://example.test/mlperf",
  sourceDate: "2025-11",
};
const post = (url: string, body: string, type = "application/json") =>
  new Request(`http://local${url}`, { method: "POST", headers: { "content-type": type }, body });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const none = undefined as never;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor } = await import("@/lib/testing/auth.ts");
  const operator: TestSession = await sessionFor("operator", "op@test.local");
  const viewer: TestSession = await sessionFor("viewer");
  raw = {
    list: await import("./route.ts"),
    item: await import("./[id]/route.ts"),
    upload: await import("./import/route.ts"),
  };
  const as = (s: TestSession): Routes => ({
    list: asUser(raw.list, s),
    item: asUser(raw.item, s),
    upload: asUser(raw.upload, s),
  });
  asOperator = as(operator);
  asViewer = as(viewer);
  db = (await import("@/lib/db.ts")).db;
  // pinned prices (not the shipped catalogue, which releases change)
  const price = (provider: string, instanceType: string, gpuCount: number, micros: bigint) =>
    db.priceEntry.create({
      data: {
        provider,
        instanceType,
        pricingModel: "on_demand",
        gpuModel: "H100-80GB",
        gpuCount,
        gpuMemoryBytes: 80n * 1024n ** 3n,
        usdPerHourMicros: micros,
        effectiveFrom: new Date("2024-01-01T00:00:00Z"),
        source: "test",
        sourceDate: "2024-01",
      },
    });
  await price("aws", "p5.48xlarge", 8, 98_320_000n);
  await price("gcp", "g2-standard-4", 1, 706_830n);
});
afterAll(async () => db.$disconnect());

describe("benchmark API", () => {
  it("refuses the signed-out (401) and viewers (403)", async () => {
    expect((await raw.list.GET(new Request("http://local/api/benchmarks"), none)).status).toBe(401);
    expect((await asViewer.list.GET(new Request("http://local/api/benchmarks"), none)).status).toBe(
      403,
    );
    expect(
      (await asViewer.list.POST(post("/api/benchmarks", JSON.stringify(result)), none)).status,
    ).toBe(403);
    const csv = `${HEADER}\naws,p5.48xlarge,w,tokens/s,1,s,2025-01,`;
    expect(
      (await asViewer.upload.POST(post("/api/benchmarks/import", csv, "text/csv"), none)).status,
    ).toBe(403);
    expect(await db.benchmarkResult.count()).toBe(0);
  });

  it("adds a result with its cost per unit of work, audited; a duplicate is 409", async () => {
    const res = await asOperator.list.POST(post("/api/benchmarks", JSON.stringify(result)), none);
    expect(res.status).toBe(201);
    const row = (await res.json()) as {
      origin: string;
      updatedBy: string;
      costs: { pricingModel: string; per: string; micros: string }[];
    };
    expect(row).toMatchObject({ origin: "user", updatedBy: "op@test.local" });
    // p5.48xlarge on-demand at $98.32/h ÷ (24 525 × 3600) × 1e6
    expect(row.costs).toContainEqual(
      expect.objectContaining({
        pricingModel: "on_demand",
        per: "$ per million tokens",
        micros: "1113603",
      }),
    );
    expect(await db.auditEvent.count({ where: { action: "benchmarks.create" } })).toBe(1);
    const again = await asOperator.list.POST(post("/api/benchmarks", JSON.stringify(result)), none);
    expect(again.status).toBe(409);
  });

  it("answers 400 naming the bad fields, and 413 past 1 MiB", async () => {
    const res = await asOperator.list.POST(
      post("/api/benchmarks", JSON.stringify({ ...result, value: -1, sourceDate: "soon" })),
      none,
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe("bad_request");
    expect(body.issues.map((i) => i.path).sort()).toEqual(["sourceDate", "value"]);
    const huge = `${HEADER}\n${"x".repeat(1024 * 1024 + 1)}`;
    expect(
      (await asOperator.upload.POST(post("/api/benchmarks/import", huge, "text/csv"), none)).status,
    ).toBe(413);
    expect(
      (await asOperator.upload.POST(post("/api/benchmarks/import", "a", "application/json"), none))
        .status,
    ).toBe(415);
  });

  it("refuses a CSV with a bad line, naming the line, and writes nothing", async () => {
    const before = await db.benchmarkResult.count();
    const csv = `${HEADER}\ngcp,a3-highgpu-8g,w,tokens/s,100,s,2025-01,\ngcp,g2-standard-4,w,tokens/s,abc,s,2025-01,\n`;
    const res = await asOperator.upload.POST(post("/api/benchmarks/import", csv, "text/csv"), none);
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: string;
      issues: { path: string; message: string }[];
    };
    expect(body.error).toMatch(/^line 3: value: /);
    expect(body.issues[0]?.path).toBe("line 3");
    expect(await db.benchmarkResult.count()).toBe(before);
  });

  it("imports a good CSV in one go (added and updated), audited with the counts", async () => {
    const csv = `${HEADER}\naws,p5.48xlarge,Llama 2 70B offline,tokens/s,25000,https://example.test/mlperf,2025-12,rerun\ngcp,g2-standard-4,SDXL,images/s,2.5,https://example.test/sdxl,2025-10,\n`;
    const res = await asOperator.upload.POST(post("/api/benchmarks/import", csv, "text/csv"), none);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ added: 1, updated: 1, lines: 2 });
    const audit = await db.auditEvent.findFirst({ where: { action: "benchmarks.import" } });
    expect(audit?.actor).toBe("op@test.local");
    const list = (await (
      await asOperator.list.GET(new Request("http://local/api/benchmarks"), none)
    ).json()) as {
      rows: { instanceType: string; value: number; costs: { per: string }[] }[];
    };
    expect(list.rows.find((r) => r.instanceType === "p5.48xlarge")?.value).toBe(25000);
    expect(list.rows.find((r) => r.instanceType === "g2-standard-4")?.costs[0]?.per).toBe(
      "$ per 1000 images",
    );
  });

  it("deletes a person's result (audited) but not a shipped one (409)", async () => {
    const mine = await db.benchmarkResult.findFirstOrThrow({
      where: { instanceType: "g2-standard-4" },
    });
    const del = new Request(`http://local/api/benchmarks/${mine.id}`, { method: "DELETE" });
    expect((await asOperator.item.DELETE(del, ctx(mine.id) as never)).status).toBe(200);
    expect(await db.benchmarkResult.count({ where: { id: mine.id } })).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "benchmarks.delete" } })).toBe(1);

    const { installShippedBenchmarks } = await import("@/lib/benchmarks/shipped.ts");
    expect(await installShippedBenchmarks(db)).toEqual({ inserted: 3, updated: 0, kept: 0 });
    expect(await installShippedBenchmarks(db)).toEqual({ inserted: 0, updated: 0, kept: 3 });
    const shipped = await db.benchmarkResult.findFirstOrThrow({ where: { origin: "shipped" } });
    const refused = await asOperator.item.DELETE(
      new Request(`http://local/api/benchmarks/${shipped.id}`, { method: "DELETE" }),
      ctx(shipped.id) as never,
    );
    expect(refused.status).toBe(409);
    // nor overwritten by a CSV import (which would also have made it deletable): 409, and the
    // whole file is refused, its other lines included
    const { SHIPPED_BENCHMARKS } = await import("@/lib/benchmarks/shipped.ts");
    const target = SHIPPED_BENCHMARKS[0];
    if (!target) throw new Error("no shipped benchmark");
    const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
    const overwrite = `${HEADER}\n${target.provider},${target.instanceType},${quote(target.workload)},${target.unit},1,${quote(target.source)},2025-12,mine\ngcp,g2-standard-8,SDXL,images/s,3,https://example.test/sdxl,2025-10,\n`;
    const imported = await asOperator.upload.POST(
      post("/api/benchmarks/import", overwrite, "text/csv"),
      none,
    );
    expect(imported.status).toBe(409);
    expect(((await imported.json()) as { error: string }).error).toMatch(
      /is a shipped benchmark result .* nothing was imported/,
    );
    const after = await db.benchmarkResult.findUniqueOrThrow({
      where: {
        provider_instanceType_workload_unit_source: {
          provider: target.provider,
          instanceType: target.instanceType,
          workload: target.workload,
          unit: target.unit,
          source: target.source,
        },
      },
    });
    expect(after).toMatchObject({ value: target.value, origin: "shipped" });
    expect(await db.benchmarkResult.count({ where: { instanceType: "g2-standard-8" } })).toBe(0);
    const missing = await asOperator.item.DELETE(
      new Request("http://local/api/benchmarks/nope", { method: "DELETE" }),
      ctx("nope") as never,
    );
    expect(missing.status).toBe(404);
  });
});
