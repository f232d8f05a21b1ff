import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import type { Db } from "@/lib/db.ts";
import { sumMicros } from "@/lib/core/money.ts";
import { makeTestDb } from "@/lib/testing/test-db.ts";
import { getHolderSpend, longestIdleStretch, NOT_HELD } from "./by-holder.ts";
import { holderSpendCsv } from "./holder-csv.ts";

// The costs page's spend by holder (issue 24): adds up to the month's total, team-scoped.

const H = (d: number, h: number) => new Date(Date.UTC(2026, 10, d, h));
let db: Db;

async function hostWithHours(
  hostname: string,
  team: string,
  holders: [string, number, bigint, bigint, number][],
) {
  const host = await db.host.create({ data: { hostname, team } });
  const base = {
    hostId: host.id,
    provider: "aws",
    instanceType: "p4d",
    region: "r",
    pricingModel: "on_demand",
    team,
    project: "p",
    upSeconds: 3600,
    samples: 60,
    idleSeconds: 0,
    priced: true,
    source: "test",
  };
  // three hours at $3.333333 each, idle $1.111111 each
  for (const h of [1, 2, 3]) {
    await db.usageHour.create({
      data: {
        ...base,
        hourStart: H(2, h),
        gpuKey: "host",
        costMicros: 3_333_333n,
        idleCostMicros: 1_111_111n,
      },
    });
  }
  for (const [user, hour, cost, idle, idleS] of holders) {
    await db.usageHourHolder.create({
      data: {
        hourStart: H(2, hour),
        hostId: host.id,
        gpuKey: "GPU-0",
        holderKey: `${user}|process:py`,
        user,
        kind: "process",
        ref: "py",
        team,
        sharePpm: 500_000,
        memByteSeconds: 1n,
        costMicros: cost,
        idleSeconds: idleS,
        idleCostMicros: idle,
      },
    });
  }
}

beforeAll(async () => {
  db = makeTestDb().db;
  await hostWithHours("a-1", "ml", [
    ["alice", 1, 1_666_667n, 1_111_111n, 1800],
    ["alice", 2, 1_666_666n, 1_111_111n, 3600],
    ["=cmd()", 2, 1_666_667n, 0n, 0],
    ["alice", 3, 3_333_333n, 0n, 0],
  ]);
  await hostWithHours("b-1", "vision", [["bob", 1, 3_333_333n, 1_111_111n, 3600]]);
});

afterAll(async () => {
  await db.$disconnect();
});

describe("spend by holder", () => {
  it("adds up to the month's total, exactly and in displayed cents, with the rest not held", async () => {
    const s = await getHolderSpend("2026-11", { client: db, scope: null });
    expect(s.totalMicros).toBe("19999998");
    const rows = new Map(s.rows.map((r) => [r.holder, r]));
    expect(rows.get("alice")).toMatchObject({
      costMicros: "6666666",
      idleMicros: "2222222",
      idleGpuHours: 1.5,
      gpuHours: 1.5,
    });
    // alice's GPU sat idle 30 min in hour 1 and all of hour 2: one 90-minute stretch
    expect(rows.get("alice")?.longestIdleSeconds).toBe(5400);
    expect(sumMicros(s.rows.map((r) => BigInt(r.costMicros)))).toBe(19_999_998n);
    expect(sumMicros(s.rows.map((r) => BigInt(r.displayCostMicros)))).toBe(
      BigInt(s.displayTotalMicros),
    );
    expect(sumMicros(s.rows.map((r) => BigInt(r.displayIdleMicros)))).toBe(
      BigInt(s.displayIdleMicros),
    );
    expect(s.rows.at(-1)).toMatchObject({ holder: NOT_HELD, held: false });
  });

  it("shows a team-limited reader its team's holders only", async () => {
    const s = await getHolderSpend("2026-11", { client: db, scope: ["vision"] });
    expect(s.rows.map((r) => r.holder)).toEqual(["bob", NOT_HELD]);
    expect(s.totalMicros).toBe("9999999");
  });

  it("names people through the viewer's namer (pseudonyms)", async () => {
    const s = await getHolderSpend("2026-11", {
      client: db,
      scope: ["vision"],
      name: () => "user-0000",
      pseudonymous: true,
    });
    expect(s.rows[0]?.holder).toBe("user-0000");
    expect(s.pseudonymous).toBe(true);
  });

  it("exports the table as CSV with formula-like names escaped and a total row", async () => {
    const s = await getHolderSpend("2026-11", { client: db, scope: null });
    const rows = parse(holderSpendCsv(s), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.holder)).toEqual(["'=cmd()", "alice", "bob", NOT_HELD, "Total"]);
    const body = rows.slice(0, -1);
    const cents = body.reduce((n, r) => n + Math.round(Number(r.cost_rounded) * 100), 0);
    expect(cents).toBe(Math.round(Number(rows.at(-1)?.cost_rounded) * 100));
    expect(rows.find((r) => r.holder === "alice")?.longest_idle_hours).toBe("1.50");
  });

  it("breaks an idle stretch at a gap or a busy hour", () => {
    const h = (hour: number, idleSeconds: number, gpuKey = "g") => ({
      hostId: "h",
      gpuKey,
      hourStart: H(3, hour),
      idleSeconds,
    });
    expect(longestIdleStretch([h(1, 3600), h(2, 3600), h(4, 3600)])).toBe(7200);
    expect(longestIdleStretch([h(1, 3600), h(2, 0), h(3, 1200)])).toBe(3600);
    expect(longestIdleStretch([h(1, 3600), h(2, 3600, "other")])).toBe(3600);
    expect(longestIdleStretch([])).toBe(0);
  });
});
