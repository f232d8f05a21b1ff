import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// A user limited to team "research" against an unlimited one, through the real route handlers on
// a store with two teams: they see only research's hosts, spend, alerts and recommendations, and
// another team's things do not exist for them (404).

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-scope-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Db = (typeof import("@/lib/db.ts"))["db"];
type Handler = (req: Request, ctx: unknown) => Promise<Response>;
let db: Db;
let limited: TestSession;
let everyone: TestSession;
const ids = {
  r1: "",
  r2: "",
  o1: "",
  alertR: "",
  alertO: "",
  alertFleet: "",
  recR: "",
  recO: "",
  budgetFleet: "",
  budgetR: "",
  budgetO: "",
};
const M = 1_000_000n;

async function seed(): Promise<void> {
  const now = new Date();
  const { monthBounds, monthOf } = await import("@/lib/core/months.ts");
  const hourStart = monthBounds(monthOf(now)).from;
  await db.priceEntry.create({
    data: {
      provider: "aws",
      instanceType: "p4d.24xlarge",
      pricingModel: "on_demand",
      gpuModel: "A100",
      gpuCount: 8,
      gpuMemoryBytes: 40n * 1024n ** 3n,
      usdPerHourMicros: 32n * M,
      effectiveFrom: new Date("2024-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2024-01-01",
    },
  });
  const hosts: [keyof typeof ids, string, string, number, bigint][] = [
    ["r1", "r-one", "research", 2, 10n * M],
    ["r2", "r-two", "research", 1, 20n * M],
    ["o1", "o-one", "infra", 2, 40n * M],
  ];
  for (const [key, hostname, team, gpus, cost] of hosts) {
    const h = await db.host.create({
      data: {
        hostname,
        team,
        project: `${team}-p`,
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        state: "up",
        lastSeen: now,
      },
    });
    ids[key] = h.id;
    for (let i = 0; i < gpus; i++) {
      const uuid = `${hostname}-gpu${i}`;
      await db.gpu.create({
        data: { hostId: h.id, uuid, index: i, name: "A100", memoryTotalBytes: 80n * 1024n ** 3n },
      });
      await db.gpu.update({ where: { uuid }, data: { lastSeen: now } });
      await db.gpuMinute.create({
        data: {
          hostId: h.id,
          gpuUuid: uuid,
          minuteStart: new Date(now.getTime() - 60_000),
          samples: 4,
          util: team === "research" ? 0.8 : 0.2,
          memUsedBytes: 1024n ** 3n,
          memTotalBytes: 80n * 1024n ** 3n,
          processes: 1,
        },
      });
    }
    await db.usageHour.create({
      data: {
        hourStart,
        hostId: h.id,
        gpuKey: "host",
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        pricingModel: "on_demand",
        team,
        project: `${team}-p`,
        upSeconds: 3600,
        samples: 240,
        idleSeconds: 0,
        priced: true,
        costMicros: cost,
        idleCostMicros: 0n,
        source: "test",
      },
    });
  }
  // the rows went in past the ledger's writer: roll them up as it would
  const { rebuildUsageDays } = await import("@/lib/ledger/usage-days.ts");
  await rebuildUsageDays(db);
  const rule = await db.alertRule.create({ data: { name: "Idle", kind: "idle", enabled: false } });
  const alert = async (key: string, hostId: string | null, team: string | null) =>
    (
      await db.alert.create({
        data: {
          ruleId: rule.id,
          fingerprint: key,
          openKey: key,
          kind: "idle",
          summary: key,
          hostId,
          team,
          startsAt: new Date(),
        },
      })
    ).id;
  ids.alertR = await alert("a-research", ids.r1, "research");
  ids.alertO = await alert("a-infra", ids.o1, "infra");
  ids.alertFleet = await alert("a-fleet", null, null);
  const rec = async (key: string, hostId: string) =>
    (
      await db.recommendation.create({
        data: {
          kind: "idle_release",
          hostId,
          fingerprint: key,
          title: key,
          details: "d",
          monthlySavingMicros: 5n * M,
        },
      })
    ).id;
  ids.recR = await rec("r-research", ids.r2);
  ids.recO = await rec("r-infra", ids.o1);
  const budget = async (scopeKind: string, scopeValue: string, amount: bigint) =>
    (
      await db.budget.create({
        data: { name: `${scopeKind} ${scopeValue}`, scopeKind, scopeValue, amountMicros: amount },
      })
    ).id;
  ids.budgetFleet = await budget("fleet", "", 1000n * M);
  ids.budgetR = await budget("team", "research", 100n * M);
  ids.budgetO = await budget("team", "infra", 200n * M);
}

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  const { sessionFor, signIn, cookieFrom, TEST_PASSWORD } = await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  everyone = await sessionFor("finance");
  const email = "research-only@test.local";
  await createUser({ email, password: TEST_PASSWORD, role: "finance", teams: ["research"] });
  limited = {
    email,
    cookie: cookieFrom(await signIn(email, TEST_PASSWORD)),
    origin: publicOrigin(),
  };
  await seed();
}, 60_000);
afterAll(async () => db.$disconnect());

async function route(path: string): Promise<Record<string, Handler>> {
  return (await import(/* @vite-ignore */ `/app/api/${path}/route.ts`)) as Record<string, Handler>;
}

async function call(
  s: TestSession,
  path: string,
  {
    method = "GET",
    id,
    query = "",
    body,
  }: { method?: string; id?: string; query?: string; body?: unknown } = {},
): Promise<Response> {
  const handler = (await route(path))[method];
  if (!handler) throw new Error(`no ${method} ${path}`);
  const url = `http://127.0.0.1:3000/api/${path.replace("[id]", id ?? "")}${query}`;
  const req = new Request(url, {
    method,
    headers: { "content-type": "application/json", cookie: s.cookie, origin: s.origin },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  return handler(req, { params: Promise.resolve({ id }) });
}

async function ok<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as T;
}

type Summary = {
  hosts: { total: number };
  gpus: { known: number; reporting: number };
  burn: { perHourMicros: string };
  utilMean: number | null;
  month: { spendMicros: string; budgetMicros: string | null };
  groups: { team: { key: string; gpus: number }[] };
  attention: { total: number; gpus: { hostId: string }[] };
};
type GpuPage = { total: number; gpus: { hostId: string }[] };

describe("team-limited users", () => {
  it("the fleet summary counts, burns and spends over their teams' hosts only", async () => {
    const all = await ok<Summary>(call(everyone, "fleet"));
    expect(all.hosts.total).toBe(3);
    expect(all.gpus).toEqual({ known: 5, reporting: 5 });
    expect(all.burn.perHourMicros).toBe(String(96n * M));
    expect(all.month).toMatchObject({
      spendMicros: String(70n * M),
      budgetMicros: String(1000n * M),
    });

    const mine = await ok<Summary>(call(limited, "fleet"));
    expect(mine.hosts.total).toBe(2);
    expect(mine.gpus).toEqual({ known: 3, reporting: 3 });
    expect(mine.burn.perHourMicros).toBe(String(64n * M));
    expect(mine.utilMean).toBeCloseTo(0.8);
    expect(mine.groups.team).toEqual([expect.objectContaining({ key: "research", gpus: 3 })]);
    const page = await ok<GpuPage>(call(limited, "fleet/gpus", { query: "?by=state&key=busy" }));
    expect(page.total).toBe(3);
    expect(new Set(page.gpus.map((g) => g.hostId))).toEqual(new Set([ids.r1, ids.r2]));
    // another team's group is empty for them, not an error
    const infra = await ok<GpuPage>(call(limited, "fleet/gpus", { query: "?by=team&key=infra" }));
    expect(infra).toMatchObject({ total: 0, gpus: [] });
    const allInfra = await ok<GpuPage>(
      call(everyone, "fleet/gpus", { query: "?by=team&key=infra" }),
    );
    expect(allInfra.total).toBe(2);
    // their one team's budget, not the fleet's
    expect(mine.month).toMatchObject({
      spendMicros: String(30n * M),
      budgetMicros: String(100n * M),
    });
    // the unlimited view is unchanged after a limited one was built from the same snapshot
    expect(await ok<Summary>(call(everyone, "fleet"))).toMatchObject({ hosts: { total: 3 } });
  });

  it("fleet GPU pages: a missing key, an unknown reason, a page too large or a stray parameter is a 400", async () => {
    for (const [query, path] of [
      ["?by=team", "key"],
      ["?by=attention&key=sleepy", "key"],
      ["?by=team&key=research&pageSize=501", "pageSize"],
      ["?by=team&key=research&page=0", "page"],
      ["?by=rack&key=r1", "by"],
      ["?by=team&key=research&limit=5", "limit"],
    ] as const) {
      const res = await call(everyone, "fleet/gpus", { query });
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as {
        error: string;
        code: string;
        issues: { path: string }[];
      };
      expect(body.code).toBe("bad_request");
      expect(body.issues.map((i) => i.path).join(","), query).toContain(path);
    }
    const last = await ok<GpuPage & { page: number; pages: number }>(
      call(everyone, "fleet/gpus", { query: "?by=model&key=A100&page=3&pageSize=2" }),
    );
    expect(last).toMatchObject({ total: 5, page: 3, pages: 3 });
    expect(last.gpus).toHaveLength(1);
  });

  it("the fleet series covers their hosts only", async () => {
    type Series = { util: { v: number | null }[]; gpusReporting: { v: number | null }[] };
    const mine = await ok<Series>(call(limited, "fleet/series", { query: "?range=1h" }));
    expect(mine.util.at(-1)?.v).toBeCloseTo(0.8);
    expect(mine.gpusReporting.at(-1)?.v).toBe(3);
    const all = await ok<Series>(call(everyone, "fleet/series", { query: "?range=1h" }));
    expect(all.gpusReporting.at(-1)?.v).toBe(5);
  });

  it("lists only their instances; another team's instance and its series are 404", async () => {
    type List = { total: number; rows: { id: string }[] };
    const mine = await ok<List>(call(limited, "instances"));
    expect(mine.total).toBe(2);
    expect(mine.rows.map((r) => r.id).sort()).toEqual([ids.r1, ids.r2].sort());
    expect((await ok<List>(call(everyone, "instances"))).total).toBe(3);

    expect((await call(limited, "instances/[id]", { id: ids.r1 })).status).toBe(200);
    expect((await call(limited, "instances/[id]", { id: ids.o1 })).status).toBe(404);
    expect((await call(limited, "instances/[id]/series", { id: ids.o1 })).status).toBe(404);
    expect((await call(everyone, "instances/[id]", { id: ids.o1 })).status).toBe(200);
  });

  it("costs: totals and every breakdown add up over their hosts; the CSV has only their rows", async () => {
    type Costs = {
      totalMicros: string;
      breakdowns: Record<string, { key: string; costMicros: string }[]>;
      instances: { hostId: string; team: string }[];
      budget: { amountMicros: string } | null;
      trend: { totalMicros: string }[];
    };
    const mine = await ok<Costs>(call(limited, "costs"));
    expect(mine.totalMicros).toBe(String(30n * M));
    for (const rows of Object.values(mine.breakdowns)) {
      expect(rows.reduce((s, r) => s + BigInt(r.costMicros), 0n)).toBe(30n * M);
    }
    expect(mine.breakdowns.team?.map((r) => r.key)).toEqual(["research"]);
    expect(mine.instances.map((r) => r.hostId).sort()).toEqual([ids.r1, ids.r2].sort());
    expect(mine.budget?.amountMicros).toBe(String(100n * M));
    expect(mine.trend.at(-1)?.totalMicros).toBe(String(30n * M));

    const all = await ok<Costs>(call(everyone, "costs"));
    expect(all.totalMicros).toBe(String(70n * M));
    expect(all.budget?.amountMicros).toBe(String(1000n * M));

    const csv = await (await call(limited, "costs/export.csv")).text();
    const lines = csv.trim().split("\n").slice(1, -1);
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.includes(",research,"))).toBe(true);
    expect(lines.some((l) => l.includes("o-one"))).toBe(false);
  });

  it("budgets: only their teams' budgets, read and written; others are 404 or 403", async () => {
    type Budgets = { budgets: { id: string }[] };
    const mine = await ok<Budgets>(call(limited, "budgets"));
    expect(mine.budgets.map((b) => b.id)).toEqual([ids.budgetR]);
    expect((await ok<Budgets>(call(everyone, "budgets"))).budgets).toHaveLength(3);

    expect((await call(limited, "budgets/[id]", { id: ids.budgetO })).status).toBe(404);
    expect((await call(limited, "budgets/[id]", { id: ids.budgetFleet })).status).toBe(404);
    const patchOther = { method: "PATCH", id: ids.budgetO, body: { amount: "1" } };
    expect((await call(limited, "budgets/[id]", patchOther)).status).toBe(404);
    const moveOut = { method: "PATCH", id: ids.budgetR, body: { scopeValue: "infra" } };
    expect((await call(limited, "budgets/[id]", moveOut)).status).toBe(403);
    expect(
      (await call(limited, "budgets/[id]", { method: "DELETE", id: ids.budgetO })).status,
    ).toBe(404);
    const fleetBudget = { method: "POST", body: { name: "Mine", amount: "5" } };
    expect((await call(limited, "budgets", fleetBudget)).status).toBe(403);
    const raise = { method: "PATCH", id: ids.budgetR, body: { amount: "150" } };
    expect((await call(limited, "budgets/[id]", raise)).status).toBe(200);
    expect((await db.budget.findUniqueOrThrow({ where: { id: ids.budgetO } })).amountMicros).toBe(
      200n * M,
    );
  });

  it("alerts: only their hosts' alerts (no fleet-wide ones); acting on another team's is 404", async () => {
    type Alerts = { alerts: { id: string }[]; counts: { firing: number } };
    const mine = await ok<Alerts>(call(limited, "alerts", { query: "?state=all" }));
    expect(mine.alerts.map((a) => a.id)).toEqual([ids.alertR]);
    expect(mine.counts.firing).toBe(1);
    const all = await ok<Alerts>(call(everyone, "alerts", { query: "?state=all" }));
    expect(all.alerts).toHaveLength(3);

    expect((await call(limited, "alerts/[id]", { id: ids.alertR })).status).toBe(200);
    expect((await call(limited, "alerts/[id]", { id: ids.alertO })).status).toBe(404);
    expect((await call(limited, "alerts/[id]", { id: ids.alertFleet })).status).toBe(404);
    for (const verb of ["acknowledge", "snooze", "resolve"]) {
      const res = await call(limited, `alerts/[id]/${verb}`, { method: "POST", id: ids.alertO });
      expect(res.status, verb).toBe(404);
    }
    expect((await db.alert.findUniqueOrThrow({ where: { id: ids.alertO } })).state).toBe("firing");
    const ack = await call(limited, "alerts/[id]/acknowledge", { method: "POST", id: ids.alertR });
    expect(ack.status).toBe(200);
  });

  it("rules: open-alert counts cover their hosts only", async () => {
    type Rules = { rules: { id: string; openAlerts: number }[] };
    const mine = await ok<Rules>(call(limited, "rules"));
    const all = await ok<Rules>(call(everyone, "rules"));
    expect(all.rules.map((r) => r.openAlerts)).toEqual([3]);
    expect(mine.rules.map((r) => r.openAlerts)).toEqual([1]);
    const one = await ok<{ openAlerts: number }>(
      call(limited, "rules/[id]", { id: mine.rules[0]?.id ?? "" }),
    );
    expect(one.openAlerts).toBe(1);
  });

  it("recommendations: only their hosts'; acting on another team's is 404", async () => {
    type Recs = { recommendations: { id: string }[]; totals: { openCount: number } };
    const mine = await ok<Recs>(call(limited, "recommendations", { query: "?state=all" }));
    expect(mine.recommendations.map((r) => r.id)).toEqual([ids.recR]);
    expect(mine.totals.openCount).toBe(1);
    const all = await ok<Recs>(call(everyone, "recommendations", { query: "?state=all" }));
    expect(all.recommendations).toHaveLength(2);

    expect((await call(limited, "recommendations/[id]", { id: ids.recO })).status).toBe(404);
    for (const verb of ["accept", "dismiss", "snooze", "reopen"]) {
      const res = await call(limited, `recommendations/[id]/${verb}`, {
        method: "POST",
        id: ids.recO,
      });
      expect(res.status, verb).toBe(404);
    }
    expect((await db.recommendation.findUniqueOrThrow({ where: { id: ids.recO } })).state).toBe(
      "open",
    );
    const accept = { method: "POST", id: ids.recR };
    expect((await call(limited, "recommendations/[id]/accept", accept)).status).toBe(200);
  });
});
