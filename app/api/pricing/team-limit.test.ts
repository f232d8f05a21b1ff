import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// The price catalogue and the exchange rates are fleet-wide: a finance user limited to one team
// may read them (and preview an import) but changes none of them (403), exactly as re-pricing
// and other teams' budgets refuse such a user; nothing is written or audited.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-pricing-team-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Ctx = { params: Promise<{ id: string }> };
const ctx = (id: string): Ctx => ({ params: Promise.resolve({ id }) });
const req = (method: string, url: string, body?: string, type = "application/json") =>
  new Request(`http://local${url}`, {
    method,
    headers: { "content-type": type },
    ...(body === undefined ? {} : { body }),
  });

const price = {
  provider: "gcp",
  instanceType: "g2-standard-4",
  region: "us-central1",
  pricingModel: "spot",
  gpuModel: "L4",
  gpuCount: 1,
  gpuMemoryGiB: 24,
  usdPerHour: "77",
  effectiveFrom: "2026-11-01",
  source: "typed in",
  sourceDate: "2026-11",
};
const rate = {
  currency: "CNY",
  usdPerUnit: "0.2",
  effectiveFrom: "2026-11-20",
  source: "typed in",
  sourceDate: "2026-11",
};
const CSV =
  "provider,instance_type,region,pricing_model,gpu_model,gpu_count,gpu_memory_gib,price_per_hour,currency,effective_from,source_url,source_date\n" +
  "tencent,GN7.2XLARGE32,ap-guangzhou,on_demand,T4,1,16,999,USD,2026-11-01,https://intl.cloud.tencent.com/document/product/560,2026-11\n";

let limited: TestSession;
let db: typeof import("@/lib/db.ts").db;
type Mods = {
  list: typeof import("./route.ts");
  item: typeof import("./[id]/route.ts");
  retire: typeof import("./[id]/retire/route.ts");
  imp: typeof import("./import/route.ts");
  rates: typeof import("./rates/route.ts");
  rateRetire: typeof import("./rates/[id]/retire/route.ts");
};
let as: Mods;

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, cookieFrom, signIn, TEST_PASSWORD } = await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  await createUser({
    email: "research-fin@test.local",
    password: TEST_PASSWORD,
    role: "finance",
    teams: ["research"],
  });
  limited = {
    email: "research-fin@test.local",
    cookie: cookieFrom(await signIn("research-fin@test.local", TEST_PASSWORD)),
    origin: publicOrigin(),
  };
  const u = <M extends Record<string, unknown>>(m: M) => asUser(m, limited);
  as = {
    list: u(await import("./route.ts")),
    item: u(await import("./[id]/route.ts")),
    retire: u(await import("./[id]/retire/route.ts")),
    imp: u(await import("./import/route.ts")),
    rates: u(await import("./rates/route.ts")),
    rateRetire: u(await import("./rates/[id]/retire/route.ts")),
  };
  db = (await import("@/lib/db.ts")).db;
  const { installShippedCatalogue } = await import("@/lib/pricing/seed.ts");
  await installShippedCatalogue(db);
  await db.exchangeRate.create({
    data: { ...rate, effectiveFrom: new Date("2026-11-10T00:00:00Z"), origin: "user" },
  });
});
afterAll(async () => db.$disconnect());

async function refused(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  const body = (await res.json()) as { code: string; error: string };
  expect(body.code).toBe("forbidden");
  expect(body.error).toMatch(/every team's costs.*limited to some teams/);
}

describe("a team-limited finance user and the fleet-wide catalogue", () => {
  it("reads prices and rates, and previews an import", async () => {
    expect((await as.list.GET(req("GET", "/api/pricing"), undefined as never)).status).toBe(200);
    expect((await as.rates.GET(req("GET", "/api/pricing/rates"), undefined as never)).status).toBe(
      200,
    );
    const preview = await as.imp.POST(
      req("POST", "/api/pricing/import?provider=tencent&mode=preview", CSV, "text/csv"),
      undefined as never,
    );
    expect(preview.status).toBe(200);
  });

  it("adds, changes and retires no price, applies no import and adds or retires no rate", async () => {
    const before = {
      prices: await db.priceEntry.count(),
      rates: await db.exchangeRate.count(),
      audit: await db.auditEvent.count(),
    };
    const shipped = await db.priceEntry.findFirstOrThrow({ where: { retiredAt: null } });
    const userRate = await db.exchangeRate.findFirstOrThrow({ where: { origin: "user" } });

    await refused(
      await as.list.POST(req("POST", "/api/pricing", JSON.stringify(price)), undefined as never),
    );
    await refused(
      await as.item.PATCH(
        req("PATCH", `/api/pricing/${shipped.id}`, JSON.stringify({ usdPerHour: "77" })),
        ctx(shipped.id),
      ),
    );
    await refused(
      await as.retire.POST(req("POST", `/api/pricing/${shipped.id}/retire`), ctx(shipped.id)),
    );
    await refused(
      await as.imp.POST(
        req("POST", "/api/pricing/import?provider=tencent&mode=apply", CSV, "text/csv"),
        undefined as never,
      ),
    );
    await refused(
      await as.rates.POST(
        req("POST", "/api/pricing/rates", JSON.stringify(rate)),
        undefined as never,
      ),
    );
    await refused(
      await as.rateRetire.POST(
        req("POST", `/api/pricing/rates/${userRate.id}/retire`),
        ctx(userRate.id),
      ),
    );

    expect(await db.priceEntry.count()).toBe(before.prices);
    expect(await db.priceEntry.findUniqueOrThrow({ where: { id: shipped.id } })).toEqual(shipped);
    expect(await db.exchangeRate.count()).toBe(before.rates);
    expect(await db.auditEvent.count()).toBe(before.audit);
  });
});
