import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeHost } from "../alerts/fixtures.ts";
import type { Db } from "../db.ts";
import { makeTestDb } from "../testing/test-db.ts";
import type { EvalHost } from "./evaluate.ts";
import { warnRecipients } from "./warn.ts";

// A policy's warning names the host's owner and who holds its GPUs: the holders the ledger
// recorded in the host's latest hour, largest share first, each once.

let db: Db;
beforeAll(() => {
  db = makeTestDb().db;
});
afterAll(async () => db.$disconnect());

const row = (hostId: string, hourStart: Date, gpuKey: string, user: string, sharePpm: number) => ({
  hourStart,
  hostId,
  gpuKey,
  holderKey: `${user}|process:python`,
  user,
  kind: "process",
  ref: "python",
  team: "ml",
  sharePpm,
  memByteSeconds: 1n,
  costMicros: 1n,
  idleSeconds: 0,
  idleCostMicros: 0n,
});

describe("warnRecipients", () => {
  it("names the owner, then the holders of the host's latest ledger hour", async () => {
    const h = await makeHost(db, "held-host", { owner: "olga@example.com" });
    const host = { id: h.id, owner: "olga@example.com" } as EvalHost;
    expect(await warnRecipients(db, host)).toEqual([{ role: "owner", name: "olga@example.com" }]);

    const earlier = new Date("2026-11-20T10:00:00Z");
    const latest = new Date("2026-11-20T11:00:00Z");
    await db.usageHourHolder.createMany({
      data: [
        row(h.id, earlier, "g0", "carol", 900_000),
        row(h.id, latest, "g0", "bob", 200_000),
        row(h.id, latest, "g1", "alice", 800_000),
        row(h.id, latest, "g2", "alice", 700_000),
      ],
    });
    expect(await warnRecipients(db, host)).toEqual([
      { role: "owner", name: "olga@example.com" },
      { role: "holder", name: "alice · python" },
      { role: "holder", name: "bob · python" },
    ]);
  });
});
