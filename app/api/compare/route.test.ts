import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestSession } from "@/lib/testing/auth.ts";

// GET /api/compare: operators and finance (viewer 403, signed-out 401), a bad month is 400, and
// the re-priced month counts only the caller's teams' hosts (MIG slices add cost, not GPU-hours).

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-compare-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

type Route = typeof import("./route.ts");
type Body = {
  month: string;
  models: { model: string; offers: { instanceType: string; perGpuHourMicros: string }[] }[];
  reprice: {
    teamLimited: boolean;
    actualMicros: string;
    models: {
      model: string;
      gpuHours: number;
      actualMicros: string;
      alternatives: { provider: string; micros: string }[];
    }[];
  };
};
const M = 1_000_000n;
const MONTH = "2026-10";
let raw: Route;
let asFinance: Route;
let asLimited: Route;
let asOperator: Route;
let asViewer: Route;
let db: typeof import("@/lib/db.ts").db;

const get = (route: Route, query = `?month=${MONTH}`) =>
  route.GET(new Request(`http://local/api/compare${query}`), undefined as never);

async function seed(): Promise<void> {
  const price = (provider: string, instanceType: string, gpuCount: number, micros: bigint) =>
    db.priceEntry.create({
      data: {
        provider,
        instanceType,
        pricingModel: "on_demand",
        gpuModel: "A100-40GB",
        gpuCount,
        gpuMemoryBytes: 40n * 1024n ** 3n,
        usdPerHourMicros: micros,
        effectiveFrom: new Date("2024-01-01T00:00:00Z"),
        source: "test",
        sourceDate: "2024-01",
      },
    });
  await price("aws", "p4d.24xlarge", 8, 32n * M);
  await price("gcp", "a2-highgpu-1g", 1, 3_673_000n);
  const hourStart = new Date(`${MONTH}-05T10:00:00Z`);
  const rows: [string, string, [string, bigint][]][] = [
    [
      "r-one",
      "research",
      [
        ["g0", 4n * M],
        ["g1", 1n * M],
        ["g1:gi1", 3n * M],
      ],
    ],
    ["o-one", "infra", [["g0", 4n * M]]],
  ];
  for (const [hostname, team, gpus] of rows) {
    const h = await db.host.create({
      data: {
        hostname,
        team,
        project: "p",
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        state: "up",
      },
    });
    for (const [key, cost] of [["host", 0n] as [string, bigint], ...gpus]) {
      await db.usageHour.create({
        data: {
          hourStart,
          hostId: h.id,
          gpuKey: key === "host" ? "host" : `${hostname}-${key}`,
          gpuModel: key === "host" ? "A100-40GB" : "NVIDIA A100-SXM4-40GB",
          provider: "aws",
          instanceType: "p4d.24xlarge",
          region: "us-east-1",
          pricingModel: "on_demand",
          team,
          project: "p",
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
  }
}

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  db = (await import("@/lib/db.ts")).db;
  const { asUser, sessionFor, signIn, cookieFrom, TEST_PASSWORD } =
    await import("@/lib/testing/auth.ts");
  const { createUser } = await import("@/lib/auth/users.ts");
  const { publicOrigin } = await import("@/lib/auth/auth.ts");
  raw = await import("./route.ts");
  asFinance = asUser(raw, await sessionFor("finance"));
  asOperator = asUser(raw, await sessionFor("operator"));
  asViewer = asUser(raw, await sessionFor("viewer"));
  await createUser({
    email: "research@test.local",
    password: TEST_PASSWORD,
    role: "operator",
    teams: ["research"],
  });
  const limited: TestSession = {
    email: "research@test.local",
    cookie: cookieFrom(await signIn("research@test.local", TEST_PASSWORD)),
    origin: publicOrigin(),
  };
  asLimited = asUser(raw, limited);
  await seed();
}, 60_000);
afterAll(async () => db.$disconnect());

describe("GET /api/compare", () => {
  it("is for operators and finance; a bad month is 400", async () => {
    expect((await get(raw)).status).toBe(401);
    expect((await get(asViewer)).status).toBe(403);
    expect((await get(asOperator)).status).toBe(200);
    const bad = await get(asFinance, "?month=2026-13");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe("bad_request");
    expect((await get(asFinance, "?month=2026-10&x=1")).status).toBe(400);
  });

  it("ranks offers per GPU and re-prices the whole fleet's month", async () => {
    const body = (await (await get(asFinance)).json()) as Body;
    expect(body.month).toBe(MONTH);
    const a100 = body.models.find((m) => m.model === "A100-40GB");
    // 3.673 per GPU-hour beats 32 / 8 = 4
    expect(a100?.offers.map((o) => [o.instanceType, o.perGpuHourMicros])).toEqual([
      ["a2-highgpu-1g", "3673000"],
      ["p4d.24xlarge", "4000000"],
    ]);
    expect(body.reprice.teamLimited).toBe(false);
    expect(body.reprice.models).toEqual([
      expect.objectContaining({
        model: "A100-40GB",
        gpuHours: 3,
        actualMicros: "12000000",
        alternatives: [
          expect.objectContaining({ provider: "gcp", micros: "11019000" }), // 3 h × 3.673
          expect.objectContaining({ provider: "aws", micros: "12000000" }), // 3 h × 32 / 8
        ],
      }),
    ]);
  });

  it("counts only the caller's teams' hours", async () => {
    const body = (await (await get(asLimited)).json()) as Body;
    expect(body.reprice.teamLimited).toBe(true);
    expect(body.reprice.actualMicros).toBe("8000000");
    expect(body.reprice.models[0]).toMatchObject({
      gpuHours: 2,
      actualMicros: "8000000",
      alternatives: [
        expect.objectContaining({ provider: "gcp", micros: "7346000" }),
        expect.objectContaining({ provider: "aws", micros: "8000000" }),
      ],
    });
  });
});
