import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Holder } from "../core/holders.ts";
import type { ProcessInfo } from "../metrics/source.ts";
import type { Condition } from "./facts.ts";

// Idle alerts name the holder (issue 24): on a shared host where alice's GPU sits idle and bob's is
// busy, the held-idle alert names alice, mentions her Slack member and carries a holder label.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-idle-holders-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

beforeAll(async () => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
  const { savePerson } = await import("../people/directory.ts");
  await savePerson({ kind: "user", key: "alice", email: "alice@example.com", slackId: "U0ALICE1" });
  await savePerson({ kind: "user", key: "bob", email: "bob@example.com", slackId: "U0BOB001" });
});

const who = (user: string, ref: string): Holder => ({
  user,
  kind: "container",
  ref,
  name: `${user}-notebook`,
  namespace: null,
  account: null,
});
const procs: ProcessInfo[] = [
  {
    gpuUuid: "GPU-0",
    pid: 10,
    processName: "python",
    usedMemoryBytes: 8e9,
    holder: who("alice", "a1"),
  },
  {
    gpuUuid: "GPU-1",
    pid: 11,
    processName: "python",
    usedMemoryBytes: 9e9,
    holder: who("bob", "b1"),
  },
];
const cond = (gpuUuid: string, idleKind: string): Condition => ({
  fingerprint: `r:gpu:${gpuUuid}`,
  severity: "warning",
  hostId: "h1",
  gpuUuid,
  team: "ml",
  project: "p",
  summary: `GPU 0 on shared-1 ${idleKind} and idle for 30 min (owner ops)`,
  details: { idleKind, owner: "ops", hostname: "shared-1" },
});

describe("idle alerts name the holder", () => {
  it("names alice on her idle GPU, with her Slack member, and leaves empty GPUs and bob alone", async () => {
    const { withIdleHolders } = await import("./idle-holders.ts");
    const { db } = await import("../db.ts");
    const reads: string[] = [];
    const metrics = {
      processes: (id: string) => {
        reads.push(id);
        return Promise.resolve(procs);
      },
    };
    const [held, empty] = await withIdleHolders(
      [cond("GPU-0", "held"), cond("GPU-2", "empty")],
      metrics,
      db,
    );
    expect(held?.summary).toBe(
      "GPU 0 on shared-1 held and idle for 30 min; held by alice · container alice-notebook",
    );
    expect(held?.details).toMatchObject({
      holder: "alice · container alice-notebook",
      holderUser: "alice",
      holderSlackId: "U0ALICE1",
      holderContact: "user alice",
      owner: "ops",
    });
    expect(JSON.stringify(held)).not.toContain("bob");
    expect(empty).toEqual(cond("GPU-2", "empty"));
    expect(reads).toEqual(["h1"]);

    const { buildMessage } = await import("../notify/message.ts");
    const { buildPayload } = await import("../notify/payload.ts");
    const message = buildMessage(
      "n1",
      "firing",
      {
        id: "a1",
        kind: "idle",
        severity: "warning",
        state: "firing",
        summary: held?.summary ?? "",
        details: JSON.stringify(held?.details),
        fingerprint: "f",
        startsAt: new Date("2026-11-20T10:00:00Z"),
        endsAt: null,
        hostId: "h1",
        gpuUuid: "GPU-0",
        team: "ml",
        project: "p",
        ruleName: "Idle GPU",
      },
      null,
    );
    const slack = buildPayload("slack", message, new Date()) as { text: string };
    expect(slack.text.startsWith("<@U0ALICE1> ")).toBe(true);
    const am = buildPayload("alertmanager", message, new Date()) as {
      alerts: { labels: Record<string, string> }[];
    };
    expect(am.alerts[0]?.labels.holder).toBe("alice · container alice-notebook");
    // and the push to Alertmanager's API
    const pushed = buildPayload("alertmanager_api", message, new Date()) as {
      labels: Record<string, string>;
    }[];
    expect(pushed[0]?.labels.holder).toBe("alice · container alice-notebook");
  });

  it("an unmapped holder's alert goes to an owner label that is an email address as it is", async () => {
    const { withIdleHolders } = await import("./idle-holders.ts");
    const { db } = await import("../db.ts");
    const carol: ProcessInfo = {
      gpuUuid: "GPU-3",
      pid: 12,
      processName: "python",
      usedMemoryBytes: 7e9,
      holder: who("carol", "c1"),
    };
    const base = cond("GPU-3", "held");
    const byAddress = { ...base, details: { ...base.details, owner: "dana@example.com" } };
    const byName = { ...base, fingerprint: "r:gpu:GPU-3b" };
    const [mailed, named] = await withIdleHolders(
      [byAddress, byName],
      {
        processes: () => Promise.resolve([carol]),
      },
      db,
    );
    const tiers = (c: unknown) => (c as { audience?: unknown }).audience;
    // carol has no entry: the owner label, an address, is the next tier
    expect(tiers(mailed)).toEqual([
      [
        {
          email: "dana@example.com",
          slackId: null,
          via: "owner label",
          matched: "owner dana@example.com",
        },
      ],
    ]);
    // an owner label that is a name with no entry reaches nobody: the team gets it
    expect(tiers(named)).toEqual([]);
  });

  it("keeps the owner-only alert when the source cannot say who holds the GPU", async () => {
    const { withIdleHolders } = await import("./idle-holders.ts");
    const { db } = await import("../db.ts");
    const c = cond("GPU-0", "held");
    expect(await withIdleHolders([c], {}, db)).toEqual([c]);
    const failing = { processes: () => Promise.reject(new Error("down")) };
    expect(await withIdleHolders([c], failing, db)).toEqual([c]);
  });
});
