import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addMonths, monthBounds, monthOf } from "@/lib/core/months.ts";
import type { Db } from "@/lib/db.ts";
import type { TestSession } from "@/lib/testing/auth.ts";
import type { RepriceResultDto } from "@/lib/zod/schemas/reprice.ts";

// POST /api/pricing/reprice as Next calls it: finance previews (nothing written, nothing audited),
// then applies with the previewed total (audited when it starts and when it is swapped in); viewers, team-limited users and bad
// bodies are refused.

// The route uses the app's global client, which reads DATABASE_URL when lib/db.ts is first
// imported: point it at a fresh file before anything imports it.
const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-reprice-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Route = typeof import("./route.ts");
let route: Route;
let db: Db;
let finance: TestSession;
let viewer: TestSession;
let limited: TestSession;
let as: (s: TestSession) => Route;

const month = monthOf(new Date());
const closedMonth = addMonths(month, -1);

const post = (body: unknown) =>
  new Request("http://local/api/pricing/reprice", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const call = (s: TestSession, body: unknown) => as(s).POST(post(body), undefined);
const repriceAudits = () =>
  db.auditEvent.findMany({
    where: { action: { startsWith: "pricing.reprice" } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });

/** One unpriced ledger hour (host row + one GPU row), as written before the price existed. */
async function unpricedHour(hostId: string, hourStart: Date): Promise<void> {
  const common = {
    hourStart,
    hostId,
    provider: "routecloud",
    instanceType: "rc.1gpu",
    region: "r1",
    pricingModel: "on_demand",
    team: "ml",
    project: "llm",
    upSeconds: 3600,
    samples: 60,
    idleSeconds: 0,
    priced: false,
    costMicros: 0n,
    idleCostMicros: 0n,
    source: "test",
  };
  await db.usageHour.createMany({
    data: [
      { ...common, gpuKey: "host" },
      { ...common, gpuKey: "GPU-0" },
    ],
  });
}

beforeAll(async () => {
  // the migrated template copy the database tests use
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { asUser, cookieFrom, sessionFor, signIn, TEST_PASSWORD } =
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
  const mod = await import("./route.ts");
  route = mod;
  as = (s) => asUser(route, s);
  db = (await import("@/lib/db.ts")).db;

  const host = await db.host.create({
    data: {
      hostname: "route-1",
      provider: "routecloud",
      instanceType: "rc.1gpu",
      region: "r1",
      pricingModel: "on_demand",
      team: "ml",
    },
  });
  const { from } = monthBounds(month);
  await unpricedHour(host.id, from);
  await unpricedHour(host.id, new Date(from.getTime() + 3_600_000));
  await unpricedHour(host.id, new Date(from.getTime() - 3_600_000)); // last hour of closedMonth
  await db.priceEntry.create({
    data: {
      provider: "routecloud",
      instanceType: "rc.1gpu",
      pricingModel: "on_demand",
      gpuModel: "A10G",
      gpuCount: 1,
      gpuMemoryBytes: 24n * 1024n ** 3n,
      usdPerHourMicros: 3_600_000n,
      effectiveFrom: new Date("2020-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2020-01",
    },
  });
});
afterAll(async () => db.$disconnect());

describe("POST /api/pricing/reprice", () => {
  it("finance previews (no write, no audit), then applies (audited at the start and at the swap)", async () => {
    const auditsBefore = await db.auditEvent.count();
    const res = await call(finance, { month });
    expect(res.status).toBe(200);
    const preview = (await res.json()) as RepriceResultDto;
    expect(preview).toMatchObject({
      month,
      closed: false,
      applied: false,
      oldTotalMicros: "0",
      newTotalMicros: "7200000",
      hours: { total: 2, changed: 2, newlyPriced: 2, newlyUnpriced: 0 },
      rowsChanged: 4,
      hosts: [{ hostname: "route-1", deltaMicros: "7200000", hoursChanged: 2 }],
    });
    expect(await db.auditEvent.count()).toBe(auditsBefore);
    expect(await db.usageHour.count({ where: { priced: true } })).toBe(0);

    const applied = await call(finance, {
      month,
      apply: true,
      expectedNewTotalMicros: preview.newTotalMicros,
    });
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({
      applied: true,
      reopened: false,
      appliedBy: "fin@test.local",
      newTotalMicros: "7200000",
    });
    // the attempt is on record before anything is written, the result with the swap
    const audits = await repriceAudits();
    expect(audits).toHaveLength(2);
    const started = audits.find((a) => a.action === "pricing.reprice.started");
    const done = audits.find((a) => a.action === "pricing.reprice");
    expect(started).toMatchObject({ actor: "fin@test.local", target: month });
    expect(done).toMatchObject({ actor: "fin@test.local", target: month });
    const { runId } = JSON.parse(started?.detail ?? "{}") as { runId: string };
    expect(JSON.parse(started?.detail ?? "{}")).toEqual({
      runId,
      oldTotalMicros: "0",
      expectedNewTotalMicros: "7200000",
      reopen: false,
      source: "catalogue",
    });
    expect(JSON.parse(done?.detail ?? "{}")).toEqual({
      runId,
      oldTotalMicros: "0",
      newTotalMicros: "7200000",
      hoursChanged: 2,
      rowsChanged: 4,
      reopened: false,
      source: "catalogue",
    });
    expect(await db.repriceRun.findUnique({ where: { id: runId } })).toMatchObject({
      month,
      state: "applied",
      stagedRows: 4,
    });
    expect(await db.repriceStage.count()).toBe(0);
    expect(await db.auditEvent.count()).toBe(auditsBefore + 2);

    // a stale total (the preview no longer holds): 409, nothing written, nothing audited
    const stale = await call(finance, { month, apply: true, expectedNewTotalMicros: "1" });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toMatch(/preview again/);
    expect(await repriceAudits()).toHaveLength(2);
  });

  it("re-prices a closed month only when reopened, audited as such", async () => {
    const preview = (await (
      await call(finance, { month: closedMonth })
    ).json()) as RepriceResultDto;
    expect(preview).toMatchObject({ closed: true, newTotalMicros: "3600000" });
    const body = { month: closedMonth, apply: true, expectedNewTotalMicros: "3600000" };
    const refused = await call(finance, body);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/closed/);
    const done = await call(finance, { ...body, reopen: true });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ reopened: true, applied: true });
    const audits = await repriceAudits();
    expect(audits.map((a) => `${a.action} ${a.target}`).sort()).toEqual(
      [
        `pricing.reprice ${month}`,
        `pricing.reprice.started ${month}`,
        `pricing.reprice.reopen ${closedMonth}`,
        `pricing.reprice.started ${closedMonth}`,
      ].sort(),
    );
  });

  it("refuses viewers and team-limited users with 403", async () => {
    const before = await db.auditEvent.count();
    expect((await call(viewer, { month })).status).toBe(403);
    const res = await call(limited, { month });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /re-pricing changes every team's costs/,
    );
    expect(await db.auditEvent.count()).toBe(before);
  });

  it("answers 400 to a bad body", async () => {
    const issues = async (body: unknown) => {
      const res = await call(finance, body);
      expect(res.status).toBe(400);
      return ((await res.json()) as { issues?: { path: string }[] }).issues?.map((i) => i.path);
    };
    expect(await issues({ month: "2026-13" })).toEqual(["month"]);
    expect(await issues({ month, apply: true })).toEqual(["expectedNewTotalMicros"]);
    expect(await issues({ month, extra: 1 })).toEqual(["extra"]);
    expect(await issues({ month, expectedNewTotalMicros: "1.5" })).toEqual([
      "expectedNewTotalMicros",
    ]);
    expect(await issues({ month: addMonths(month, 1) })).toEqual(["month"]);
    expect(await issues("{nope")).toBeUndefined();
    expect(await issues({})).toEqual(["month"]);
  });
});
