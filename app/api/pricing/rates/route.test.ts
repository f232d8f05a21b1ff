import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// Exchange rates as finance adds them: validated (400 naming the fields), one per currency and
// day (409), finance only (401 signed out, 403 for a viewer), audited, and used by the lookup for
// hours from their date on.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-rates-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Route = typeof import("./route.ts");
type RetireRoute = typeof import("./[id]/retire/route.ts");
let retireAsFinance: RetireRoute;
let raw: Route;
let asFinance: Route;
let asViewer: Route;
let db: typeof import("@/lib/db.ts").db;

const post = (route: Route, body: unknown) =>
  route.POST(
    new Request("http://local/api/pricing/rates", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    undefined as never,
  );
const good = {
  currency: "cny",
  usdPerUnit: "0.1405",
  effectiveFrom: "2026-11-01",
  source: "Federal Reserve H.10, https://www.federalreserve.gov/releases/h10/",
  sourceDate: "2026-11",
};

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, sessionFor } = await import("@/lib/testing/auth.ts");
  const finance: TestSession = await sessionFor("finance", "fin@test.local");
  const viewer: TestSession = await sessionFor("viewer");
  raw = await import("./route.ts");
  asFinance = asUser(raw, finance);
  asViewer = asUser(raw, viewer);
  retireAsFinance = asUser(await import("./[id]/retire/route.ts"), finance);
  db = (await import("@/lib/db.ts")).db;
});
afterAll(async () => db.$disconnect());

describe("/api/pricing/rates", () => {
  it("refuses the signed-out (401) and viewers (403)", async () => {
    expect((await post(raw, good)).status).toBe(401);
    expect((await post(asViewer, good)).status).toBe(403);
    expect(
      (await raw.GET(new Request("http://local/api/pricing/rates"), undefined as never)).status,
    ).toBe(401);
    expect(await db.exchangeRate.count({ where: { origin: "user" } })).toBe(0);
  });

  it("refuses bad rates with a message per field", async () => {
    const res = await post(asFinance, {
      currency: "USD",
      usdPerUnit: "-0.1",
      effectiveFrom: "2026-02-30",
      source: "",
      sourceDate: "Nov",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe("bad_request");
    expect(body.issues.map((i) => i.path).sort()).toEqual(
      ["currency", "effectiveFrom", "source", "sourceDate", "usdPerUnit"].sort(),
    );
    const zero = await post(asFinance, { ...good, usdPerUnit: "0.000" });
    expect(zero.status).toBe(400);
    const extra = await post(asFinance, { ...good, note: "x" });
    expect(extra.status).toBe(400);
    expect((await post(asFinance, "{not json")).status).toBe(400);
  });

  it("adds a rate (audited) that converts CNY hours from its date on; a second one is 409", async () => {
    const res = await post(asFinance, good);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      currency: "CNY",
      usdPerUnit: "0.1405",
      origin: "user",
      updatedBy: "fin@test.local",
      effectiveFrom: "2026-11-01T00:00:00.000Z",
    });
    const audit = await db.auditEvent.findMany({ where: { action: "pricing.rate.create" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toBe("fin@test.local");

    const { installShippedCatalogue } = await import("@/lib/pricing/seed.ts");
    await installShippedCatalogue(db);
    const { loadPriceRows } = await import("@/lib/pricing/catalogue-db.ts");
    const { lookupPrice } = await import("@/lib/pricing/lookup.ts");
    const found = lookupPrice(await loadPriceRows(db), {
      provider: "alibaba",
      instanceType: "ecs.gn6v-c8g1.2xlarge",
      region: "cn-shanghai",
      pricingModel: "on_demand",
      at: new Date("2026-11-15T00:00:00Z"),
    });
    // 26.46 CNY × 0.1405 = 3.717630 USD
    expect(found).toMatchObject({ priced: true, usdPerHourMicros: 3_717_630n });

    const again = await post(asFinance, good);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/already exists/);

    const list = await asFinance.GET(
      new Request("http://local/api/pricing/rates"),
      undefined as never,
    );
    const rows = ((await list.json()) as { rows: { usdPerUnit: string; origin: string }[] }).rows;
    expect(rows[0]).toMatchObject({ usdPerUnit: "0.1405", origin: "user" });
    expect(rows.filter((r) => r.origin === "shipped").length).toBeGreaterThan(0);
  });

  it("refuses implausible rates and dates outside 2000 to 2100, naming the field", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ usdPerUnit: "999999.999999999999" }, "usdPerUnit"],
      [{ usdPerUnit: "999999" }, "usdPerUnit"],
      [{ usdPerUnit: "7.1" }, "usdPerUnit"], // CNY per USD typed the wrong way round
      [{ usdPerUnit: "0.0001" }, "usdPerUnit"],
      [{ currency: "EUR", usdPerUnit: "11" }, "usdPerUnit"],
      [{ effectiveFrom: "0000-01-01" }, "effectiveFrom"],
      [{ effectiveFrom: "9999-12-31" }, "effectiveFrom"],
      [{ sourceDate: "9999-01" }, "sourceDate"],
      [{ sourceDate: "2026-13" }, "sourceDate"],
    ];
    for (const [change, path] of cases) {
      const res = await post(asFinance, { ...good, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      const body = (await res.json()) as { issues: { path: string; message: string }[] };
      expect(body.issues.map((i) => i.path)).toEqual([path]);
    }
    expect(await db.exchangeRate.count({ where: { origin: "user" } })).toBe(1);
    const eur = await post(asFinance, { ...good, currency: "EUR", usdPerUnit: "1.08" });
    expect(eur.status).toBe(201);
  });

  it("retires a wrong rate (audited, whole), so a corrected one can be added the same day", async () => {
    const wrong = await post(asFinance, {
      ...good,
      usdPerUnit: "0.4",
      effectiveFrom: "2026-11-20",
    });
    expect(wrong.status).toBe(201);
    const { id } = (await wrong.json()) as { id: string };
    const retire = (rid: string) =>
      retireAsFinance.POST(
        new Request(`http://local/api/pricing/rates/${rid}/retire`, { method: "POST" }),
        { params: Promise.resolve({ id: rid }) },
      );
    const res = await retire(id);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, usdPerUnit: "0.4" });
    const audit = await db.auditEvent.findMany({ where: { action: "pricing.rate.retire" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: "fin@test.local", target: id });
    expect(JSON.parse(audit[0]?.detail ?? "{}")).toMatchObject({
      retired: { usdPerUnit: "0.4", currency: "CNY", effectiveFrom: "2026-11-20T00:00:00.000Z" },
    });
    expect((await retire(id)).status).toBe(404);

    const fixed = await post(asFinance, {
      ...good,
      usdPerUnit: "0.1402",
      effectiveFrom: "2026-11-20",
    });
    expect(fixed.status).toBe(201);

    const shipped = await db.exchangeRate.findFirstOrThrow({ where: { origin: "shipped" } });
    const refused = await retire(shipped.id);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/later date/);
    expect(await db.exchangeRate.findUnique({ where: { id: shipped.id } })).not.toBeNull();
  });
});
