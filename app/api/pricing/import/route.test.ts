import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The price-list upload: finance only (401 signed out, 403 for a viewer), the raw file in a
// content type its provider publishes (415 otherwise), a size cap (413), preview writes nothing,
// apply adds the rows and records one audit entry with the counts; a malformed file is a 400
// naming the line.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-pricing-import-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

// The route parses on a worker thread (lib/pricing/import/parse-off-thread.ts): this thread's
// parseImport fails if anything calls it, so every answer below comes from the worker.
vi.mock("@/lib/pricing/import/parse.ts", () => ({
  parseImport: () => {
    throw new Error("parsed on the request thread");
  },
}));

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../lib/pricing/import/fixtures/${name}`, import.meta.url), "utf8");
const AWS = fixture("aws-ec2-us-east-1-20260910195514.json");

const upload = (query: string, body: string, type = "application/json") =>
  new Request(`http://local/api/pricing/import?${query}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });

type Route = typeof import("./route.ts");
let raw: Route;
let asFinance: Route;
let asViewer: Route;
let db: typeof import("@/lib/db.ts").db;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor } = await import("@/lib/testing/auth.ts");
  const finance: TestSession = await sessionFor("finance", "fin@test.local");
  const viewer: TestSession = await sessionFor("viewer");
  raw = await import("./route.ts");
  asFinance = asUser(raw, finance);
  asViewer = asUser(raw, viewer);
  db = (await import("@/lib/db.ts")).db;
});
afterAll(async () => db.$disconnect());

const post = (route: Route, req: Request) => route.POST(req, undefined as never);

describe("POST /api/pricing/import", () => {
  it("refuses the signed-out (401) and viewers (403)", async () => {
    expect((await post(raw, upload("provider=aws", AWS))).status).toBe(401);
    const res = await post(asViewer, upload("provider=aws", AWS));
    expect(res.status).toBe(403);
    expect(await db.priceEntry.count()).toBe(0);
  });

  it("refuses other content types (415) and bodies over the cap (413)", async () => {
    const form = await post(
      asFinance,
      upload("provider=aws", AWS, "multipart/form-data; boundary=x"),
    );
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: string }).error).toMatch(
      /application\/json or text\/csv/,
    );
    const csvForAzure = await post(asFinance, upload("provider=azure", "a,b", "text/csv"));
    expect(csvForAzure.status).toBe(415);
    const huge = " ".repeat(16 * 1024 * 1024 + 1);
    expect((await post(asFinance, upload("provider=aws", huge))).status).toBe(413);
    expect(await db.priceEntry.count()).toBe(0);
  });

  it("previews without writing, then applies and audits the counts", async () => {
    const q = "provider=aws&file=aws-ec2-us-east-1-20260910195514.json";
    const preview = await post(asFinance, upload(q, AWS));
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({ dryRun: true, added: 5, skippedNonGpu: 11 });
    expect(await db.priceEntry.count()).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "pricing.import" } })).toBe(0);

    const applied = await post(asFinance, upload(`${q}&mode=apply`, AWS));
    expect(applied.status).toBe(200);
    const body = (await applied.json()) as {
      added: number;
      addedRows: { instanceType: string; usdPerHour: string }[];
    };
    expect(body.added).toBe(5);
    expect(body.addedRows).toContainEqual(
      expect.objectContaining({ instanceType: "p4d.24xlarge", usdPerHour: "21.957642" }),
    );
    const row = await db.priceEntry.findFirst({ where: { instanceType: "p5.48xlarge" } });
    expect(row).toMatchObject({
      usdPerHourMicros: 55_040_000n,
      origin: "user",
      updatedBy: "import:aws:aws-ec2-us-east-1-20260910195514.json",
    });
    const audit = await db.auditEvent.findMany({ where: { action: "pricing.import" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toBe("fin@test.local");
    expect(JSON.parse(audit[0]?.detail ?? "{}")).toEqual({
      provider: "aws",
      file: "aws-ec2-us-east-1-20260910195514.json",
      added: 5,
      unchanged: 0,
      conflicts: 0,
      skippedNonGpu: 11,
    });
  });

  it("a CSV template upload adds its rows; a malformed file is a 400 naming the line", async () => {
    const ok = await post(
      asFinance,
      upload(
        "provider=tencent&file=tencent.csv&mode=apply",
        fixture("tencent-gpu-ap-guangzhou.csv"),
        "text/csv",
      ),
    );
    expect(ok.status).toBe(200);
    expect(await db.priceEntry.count({ where: { provider: "tencent" } })).toBe(4);

    const before = await db.priceEntry.count();
    const bad = await post(
      asFinance,
      upload(
        "provider=aws&file=excerpt.json&mode=apply",
        fixture("aws-ec2-us-east-2-opencost-excerpt.malformed.json"),
      ),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe(
      "excerpt.json: line 170: not valid JSON (cannot parse input: unexpected token '}')",
    );
    const noDate = await post(
      asFinance,
      upload("provider=azure&mode=apply", fixture("azure-retail-eastus-b1s.json")),
    );
    expect(noDate.status).toBe(400);
    const badQuery = await post(asFinance, upload("provider=oracle", AWS));
    expect(badQuery.status).toBe(400);
    expect(await db.priceEntry.count()).toBe(before);
  });

  it("takes only http(s) source URLs, in the query and in a template's source_url column", async () => {
    const before = await db.priceEntry.count();
    for (const url of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>"]) {
      const q = `provider=aws&mode=apply&sourceUrl=${encodeURIComponent(url)}`;
      const res = await post(asFinance, upload(q, AWS));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { issues: { path: string; message: string }[] };
      expect(body.issues).toEqual([
        { path: "sourceUrl", message: "an http or https URL, e.g. https://example.com/prices" },
      ]);
    }
    const csv = fixture("tencent-gpu-ap-guangzhou.csv").replace(
      /https:\/\/intl\.cloud\.tencent\.com\/document\/product\/560/g,
      "javascript:alert(1)",
    );
    const res = await post(
      asFinance,
      upload("provider=tencent&file=t.csv&mode=apply", csv, "text/csv"),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      "t.csv: line 2, column source_url: an http or https URL, e.g. https://example.com/prices",
    );
    expect(await db.priceEntry.count()).toBe(before);
  });

  it("reads an upload over 10 MiB whole: an 11.7 MB template is refused for its last line", async () => {
    const header = fixture("tencent-gpu-ap-guangzhou.csv").split("\n")[0] ?? "";
    const line = (i: number, price = "1.26") =>
      `tencent,GN7.T${i},ap-guangzhou,on_demand,T4,1,16,${price},USD,2026-11-01,https://intl.cloud.tencent.com/document/product/560,2026-11`;
    const N = 90_000;
    const rows = Array.from({ length: N }, (_, i) => line(i));
    const good = `${header}\n${rows.join("\n")}\n`;
    const bad = `${good}${line(N, "1.26.0")}\n`;
    expect(bad.length).toBeGreaterThan(11 * 1024 * 1024);
    const q = "provider=tencent&file=big.csv&mode=preview";
    const refused = await post(asFinance, upload(q, bad, "text/csv"));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      new RegExp(`^big\\.csv: line ${N + 2}, column price_per_hour: `),
    );
    const ok = await post(asFinance, upload(q, good, "text/csv"));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { added: number }).added).toBe(N);
  }, 120_000);

  it("refuses the 16 MiB nested-array upload of issue 23 with a 400 saying why", async () => {
    const head = '{"offerCode":"AmazonEC2","products":{"x":';
    const body = head + "[".repeat(16 * 1024 * 1024 - head.length);
    const res = await post(asFinance, upload("provider=aws&file=h.json", body));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "invalid_input",
      error: "h.json: line 1: nested more than 64 levels deep: not a price list",
    });
  });
});
