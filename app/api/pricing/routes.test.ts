import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The pricing catalogue as finance edits it through the API: validated rows (400 naming the
// fields), duplicates refused (409), a change makes the row the user's own and is audited with
// its before and after, retiring keeps the row but stops it pricing.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-pricing-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Ctx = { params: Promise<{ id: string }> };
const ctx = (id: string): Ctx => ({ params: Promise.resolve({ id }) });
const send = (method: string, url: string, body: unknown) =>
  new Request(`http://local${url}`, {
    method,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

let routes: {
  list: typeof import("./route.ts");
  item: typeof import("./[id]/route.ts");
  retire: typeof import("./[id]/retire/route.ts");
};
let db: typeof import("@/lib/db.ts").db;
let finance: TestSession;

const tencent = {
  provider: "tencent",
  instanceType: "GN7.2XLARGE32",
  region: "ap-guangzhou",
  pricingModel: "on_demand",
  gpuModel: "T4",
  gpuCount: 1,
  gpuMemoryGiB: 16,
  usdPerHour: "1.27",
  effectiveFrom: "2026-11-01",
  source: "Tencent Cloud CVM pricing page",
  sourceDate: "2026-11",
};

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor } = await import("@/lib/testing/auth.ts");
  finance = await sessionFor("finance", "fin@test.local");
  const as = <M extends Record<string, unknown>>(m: M) => asUser(m, finance);
  routes = {
    list: as(await import("./route.ts")),
    item: as(await import("./[id]/route.ts")),
    retire: as(await import("./[id]/retire/route.ts")),
  };
  db = (await import("@/lib/db.ts")).db;
});
afterAll(async () => db.$disconnect());

type Row = { id: string; origin: string; usdPerHourMicros: string; updatedBy: string | null };

describe("pricing API", () => {
  it("adds a price that the ledger lookup then finds", async () => {
    const res = await routes.list.POST(send("POST", "/api/pricing", tencent), undefined as never);
    expect(res.status).toBe(201);
    const row = (await res.json()) as Row & { effectiveFrom: string; gpuMemoryGiB: number };
    expect(row).toMatchObject({
      origin: "user",
      updatedBy: "fin@test.local",
      usdPerHourMicros: "1270000",
      effectiveFrom: "2026-11-01T00:00:00.000Z",
      gpuMemoryGiB: 16,
    });
    const { loadPriceRows } = await import("@/lib/pricing/catalogue-db.ts");
    const { lookupPrice } = await import("@/lib/pricing/lookup.ts");
    const found = lookupPrice(await loadPriceRows(db), {
      provider: "tencent",
      instanceType: "gn7.2xlarge32",
      region: "ap-guangzhou",
      pricingModel: "on-demand",
      at: new Date("2026-11-15T00:00:00Z"),
    });
    expect(found).toMatchObject({ priced: true, usdPerHourMicros: 1_270_000n });
    const audit = await db.auditEvent.findMany({ where: { action: "pricing.create" } });
    expect(audit).toHaveLength(1);

    const again = await routes.list.POST(send("POST", "/api/pricing", tencent), undefined as never);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/already exists/);
  });

  it("refuses bad rows with a message per field, and bodies that are not JSON", async () => {
    const bad = await routes.list.POST(
      send("POST", "/api/pricing", {
        ...tencent,
        provider: "Tencent Cloud",
        pricingModel: "monthly",
        gpuCount: 0,
        usdPerHour: "-1",
        effectiveFrom: "1999-01-01",
        sourceDate: "yesterday",
        extra: 1,
      }),
      undefined as never,
    );
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { issues: { path: string }[] };
    expect(body.issues.map((i) => i.path).sort()).toEqual([
      "effectiveFrom",
      "extra",
      "gpuCount",
      "pricingModel",
      "provider",
      "sourceDate",
      "usdPerHour",
    ]);
    for (const source of ["javascript:alert(1)", "data:text/html,x", "see JavaScript :alert(1)"]) {
      const res = await routes.list.POST(
        send("POST", "/api/pricing", { ...tencent, source }),
        undefined as never,
      );
      expect(res.status).toBe(400);
      const { issues } = (await res.json()) as { issues: { path: string; message: string }[] };
      expect(issues).toEqual([
        expect.objectContaining({
          path: "source",
          message: expect.stringMatching(/http or https/),
        }),
      ]);
    }
    const notJson = await routes.list.POST(send("POST", "/api/pricing", "{no"), undefined as never);
    expect(notJson.status).toBe(400);
  });

  it("a change makes the row the user's own and audits before and after", async () => {
    const shipped = await db.priceEntry.create({
      data: {
        provider: "aws",
        instanceType: "p5.48xlarge",
        region: "*",
        pricingModel: "on_demand",
        gpuModel: "H100-80GB",
        gpuCount: 8,
        gpuMemoryBytes: 80n * 1024n ** 3n,
        usdPerHourMicros: 98_320_000n,
        effectiveFrom: new Date("2024-01-01T00:00:00Z"),
        source: "shipped",
        sourceDate: "2025-05",
        origin: "shipped",
      },
    });
    const res = await routes.item.PATCH(
      send("PATCH", `/api/pricing/${shipped.id}`, { usdPerHour: "55.04" }),
      ctx(shipped.id),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ origin: "user", usdPerHourMicros: "55040000" });
    const audit = await db.auditEvent.findFirst({ where: { action: "pricing.update" } });
    const detail = JSON.parse(audit?.detail ?? "{}") as {
      before: { usdPerHour: string };
      after: { usdPerHour: string };
    };
    expect(detail.before.usdPerHour).toBe("98.320000");
    expect(detail.after.usdPerHour).toBe("55.040000");

    const invalid = await routes.item.PATCH(
      send("PATCH", `/api/pricing/${shipped.id}`, { gpuCount: 1.5 }),
      ctx(shipped.id),
    );
    expect(invalid.status).toBe(400);
    const missing = await routes.item.PATCH(
      send("PATCH", "/api/pricing/nope", { usdPerHour: "1" }),
      ctx("nope"),
    );
    expect(missing.status).toBe(404);
  });

  it("retiring keeps the row, stops it pricing, and cannot be done twice", async () => {
    const row = await db.priceEntry.findFirstOrThrow({ where: { provider: "tencent" } });
    const res = await routes.retire.POST(
      send("POST", `/api/pricing/${row.id}/retire`, {}),
      ctx(row.id),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ retiredBy: "fin@test.local" });
    const twice = await routes.retire.POST(
      send("POST", `/api/pricing/${row.id}/retire`, {}),
      ctx(row.id),
    );
    expect(twice.status).toBe(409);
    const edit = await routes.item.PATCH(
      send("PATCH", `/api/pricing/${row.id}`, { usdPerHour: "2" }),
      ctx(row.id),
    );
    expect(edit.status).toBe(409);

    const inForce = (await (
      await routes.list.GET(new Request("http://local/api/pricing"), undefined as never)
    ).json()) as { rows: Row[] };
    expect(inForce.rows.some((r) => r.id === row.id)).toBe(false);
    const all = (await (
      await routes.list.GET(
        new Request("http://local/api/pricing?retired=include"),
        undefined as never,
      )
    ).json()) as { rows: Row[] };
    expect(all.rows.some((r) => r.id === row.id)).toBe(true);
  });
});
