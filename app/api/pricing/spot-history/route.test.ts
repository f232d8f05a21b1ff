import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The spot price history upload: finance only (401 signed out, 403 for a viewer), JSON only (415),
// a bad record is a 400 naming it, preview writes nothing, apply stores and audits once.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-spot-import-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

const SPOT = readFileSync(
  new URL(
    "../../../../lib/pricing/import/fixtures/aws-spot-price-history-p4d.json",
    import.meta.url,
  ),
  "utf8",
);

const upload = (query: string, body: string, type = "application/json") =>
  new Request(`http://local/api/pricing/spot-history?${query}`, {
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

describe("POST /api/pricing/spot-history", () => {
  it("refuses the signed-out (401), viewers (403) and other content types (415)", async () => {
    expect((await post(raw, upload("mode=apply", SPOT))).status).toBe(401);
    expect((await post(asViewer, upload("mode=apply", SPOT))).status).toBe(403);
    expect((await post(asFinance, upload("", SPOT, "text/csv"))).status).toBe(415);
    expect(await db.spotPrice.count()).toBe(0);
  });

  it("answers a bad record with a 400 naming it, and writes nothing", async () => {
    const bad = SPOT.replace('"9.832100"', '"nine"');
    const res = await post(asFinance, upload("mode=apply&file=p4d.json", bad));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe("invalid_input");
    expect(body.issues).toEqual([
      expect.objectContaining({ path: "SpotPriceHistory[0].SpotPrice" }),
    ]);
    expect(await db.spotPrice.count()).toBe(0);
  });

  it("previews, then applies once with one audit entry", async () => {
    const preview = await post(asFinance, upload("file=p4d.json", SPOT));
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({
      dryRun: true,
      added: 3,
      read: 6,
      skippedProducts: { Windows: 1 },
      skippedZones: 1,
    });
    expect(await db.spotPrice.count()).toBe(0);
    const apply = await post(asFinance, upload("mode=apply&file=p4d.json", SPOT));
    expect(await apply.json()).toMatchObject({ dryRun: false, added: 3 });
    expect(await db.spotPrice.count()).toBe(3);
    const audits = await db.auditEvent.findMany({
      where: { action: "pricing.spot_history.import" },
    });
    expect(audits).toHaveLength(1);
    const again = await post(asFinance, upload("mode=apply&file=p4d.json", SPOT));
    expect(await again.json()).toMatchObject({ added: 0, unchanged: 3 });
  });
});
