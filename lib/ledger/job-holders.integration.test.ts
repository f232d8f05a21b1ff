import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import type { Holder } from "../core/holders.ts";
import { sumMicros } from "../core/money.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { installShippedCatalogue } from "../pricing/seed.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { runLedgerJob } from "./job.ts";

// The ledger job writes who held each GPU-hour from the embedded store's minutes (issue 24).

const HOUR = Date.UTC(2026, 10, 20, 10);
const GIB = 1024 ** 3;
const holder = (user: string): Holder => ({
  user,
  kind: "container",
  ref: `${user}-c0ffee00`,
  name: `${user}-notebook`,
  namespace: null,
  account: null,
});
let db: Db;

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  const host = await db.host.create({
    data: {
      hostname: "shared-1",
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "us-east-1",
      team: "ml",
    },
  });
  for (const uuid of ["GPU-a", "GPU-b"])
    await db.gpu.create({
      data: { hostId: host.id, uuid, index: 0, name: "A100", memoryTotalBytes: BigInt(40 * GIB) },
    });
  const minutes = [];
  const hostMinutes = [];
  for (let m = 0; m < 60; m++) {
    const minuteStart = new Date(HOUR + m * 60_000);
    hostMinutes.push({ hostId: host.id, minuteStart, samples: 1, upSamples: 1 });
    // GPU-a: alice all hour; GPU-b: bob for the first half, nobody after
    const held = (user: string) => JSON.stringify([{ holder: holder(user), memBytes: 10 * GIB }]);
    minutes.push(
      {
        hostId: host.id,
        gpuUuid: "GPU-a",
        minuteStart,
        samples: 1,
        util: 0.9,
        memUsedBytes: BigInt(10 * GIB),
        memTotalBytes: BigInt(40 * GIB),
        processes: 1,
        holders: held("alice"),
      },
      {
        hostId: host.id,
        gpuUuid: "GPU-b",
        minuteStart,
        samples: 1,
        util: 0.9,
        memUsedBytes: BigInt(m < 30 ? 10 * GIB : 0),
        memTotalBytes: BigInt(40 * GIB),
        processes: m < 30 ? 1 : 0,
        holders: m < 30 ? held("bob") : null,
      },
    );
  }
  await db.hostMinute.createMany({ data: hostMinutes });
  await db.gpuMinute.createMany({ data: minutes });
});

afterAll(async () => {
  await db.$disconnect();
});

describe("ledger holders", () => {
  it("records each GPU-hour's holders with the UsageHour rows, once", async () => {
    const ctx = { db, now: new Date(HOUR + 65 * 60_000), metrics: createEmbeddedSource(db, 60) };
    await db.jobState.create({
      data: { name: "ledger.lastHour", value: new Date(HOUR - 3_600_000).toISOString() },
    });
    await runLedgerJob(ctx);
    await db.jobState.update({
      where: { name: "ledger.lastHour" },
      data: { value: new Date(HOUR - 3_600_000).toISOString() },
    });
    await runLedgerJob(ctx); // a second writer of the same hour adds nothing
    const rows = await db.usageHour.findMany({ where: { hourStart: new Date(HOUR) } });
    const holders = await db.usageHourHolder.findMany({ orderBy: { gpuKey: "asc" } });
    expect(holders.map((h) => [h.gpuKey, h.user, h.kind, h.name, h.team, h.sharePpm])).toEqual([
      ["GPU-a", "alice", "container", "alice-notebook", "ml", 1_000_000],
      ["GPU-b", "bob", "container", "bob-notebook", "ml", 500_000],
    ]);
    const cost = (key: string) => rows.find((r) => r.gpuKey === key)?.costMicros ?? -1n;
    expect(holders[0]?.costMicros).toBe(cost("GPU-a"));
    // bob held GPU-b half the hour: half its cost, to the micro-dollar (an odd micro goes to the
    // first share by largest remainder, ties to the lower index)
    expect(holders[1]?.costMicros).toBe((cost("GPU-b") + 1n) / 2n);
    expect(sumMicros(holders.map((h) => h.costMicros))).toBeLessThan(cost("host"));
  });
});
