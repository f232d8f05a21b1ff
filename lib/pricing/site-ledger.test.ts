import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { computeLedgerHour, writeLedgerHour } from "../ledger/job.ts";
import { previewReprice } from "../ledger/reprice.ts";
import type { HostSample, SamplesByHost } from "../metrics/source.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { installShippedCatalogue } from "./seed.ts";

// The ledger prices a Tencent host from its account's site list (issue 26): an ap-guangzhou
// GN7.2XLARGE32 on an account the settings put on the China site costs the CNY list price
// converted at the hour's rate; the same host on another account, the international USD price.

let db: Db;
const hourStart = new Date("2026-10-15T10:00:00Z");

function busyHour(uuid: string): HostSample[] {
  return Array.from({ length: 60 }, (_, i) => ({
    t: new Date(hourStart.getTime() + i * 60_000),
    up: true,
    gpus: [
      {
        uuid,
        model: "Tesla T4",
        util: 0.9,
        memUsedBytes: 8 * 1024 ** 3,
        memTotalBytes: 16 * 1024 ** 3,
        processes: 1,
      },
    ],
  }));
}

beforeAll(async () => {
  db = makeTestDb().db;
  await installShippedCatalogue(db);
  await db.appSetting.create({
    data: { key: "tencentChinaSiteAccounts", value: JSON.stringify(["1250000000"]) },
  });
});

afterAll(async () => {
  await db.$disconnect();
});

describe("the ledger and Tencent's two sites", () => {
  it("prices a China-site account's hour from the CNY list at the month's rate", async () => {
    const host = (hostname: string, account: string) =>
      db.host.create({
        data: {
          hostname,
          provider: "tencent",
          instanceType: "GN7.2XLARGE32",
          region: "ap-guangzhou",
          pricingModel: "on_demand",
          labels: JSON.stringify({ cloud_account: account }),
        },
      });
    const cn = await host("gz-cn", "1250000000");
    const intl = await host("gz-intl", "1250000001");
    const samples: SamplesByHost = new Map([
      [cn.id, busyHour("GPU-cn")],
      [intl.id, busyHour("GPU-intl")],
    ]);
    const hours = await computeLedgerHour(db, hourStart, samples);
    const cost = (id: string) =>
      (hours.get(id)?.rows ?? [])
        .filter((r) => r.kind === "host")
        .reduce((s, r) => s + r.costMicros, 0n);
    // 8.68 CNY × 0.14878738 USD/CNY (6.7210 CNY per USD, in force from 2026-08-21) = $1.291474
    expect(cost(cn.id)).toBe(1_291_474n);
    expect(cost(intl.id)).toBe(1_260_000n);

    // re-pricing the month prices each hour from its account's site list again: nothing changes
    await writeLedgerHour(db, hourStart, hours, "test");
    const preview = await previewReprice(
      { month: "2026-10", now: new Date("2026-11-02T00:00:00Z") },
      db,
    );
    expect(preview.hours).toMatchObject({ total: 2, changed: 0 });
    expect(preview.oldTotalMicros).toBe(preview.newTotalMicros);
  });
});
