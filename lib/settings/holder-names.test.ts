import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Holder } from "@/lib/core/holders.ts";

// Holder names for viewers (issue 24): pseudonyms under the admin setting, stable across restarts.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-holder-names-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

beforeAll(() => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
});

const alice: Holder = {
  user: "alice",
  kind: "job",
  ref: "42",
  name: null,
  namespace: null,
  account: "ml",
};

describe("holder names", () => {
  it("shows names to everyone until an admin turns pseudonyms on, then to all but viewers", async () => {
    const { holderNamerFor } = await import("./holder-names.ts");
    const { setSetting } = await import("./app-settings.ts");
    const viewer = { kind: "user", role: "viewer" } as const;
    expect((await holderNamerFor(viewer)).holder(alice)).toBe("alice · job 42");
    await setSetting("pseudonymizeHoldersForViewers", true);
    const pseudo = await holderNamerFor(viewer);
    expect(pseudo.pseudonymous).toBe(true);
    expect(pseudo.holder(alice)).toMatch(/^user-[0-9a-f]{8} · job$/);
    expect(pseudo.holder(alice)).not.toContain("alice");
    expect(pseudo.person("alice")).not.toBe(pseudo.person("bob"));
    for (const other of [{ kind: "user", role: "finance" }, { kind: "token" }] as const)
      expect((await holderNamerFor(other)).holder(alice)).toBe("alice · job 42");
  });

  it("keeps the same pseudonym across restarts: the secret is generated once and kept", async () => {
    const { pseudonymSecret, pseudonym } = await import("./holder-names.ts");
    const { db } = await import("@/lib/db.ts");
    const first = await pseudonymSecret(db);
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(await pseudonymSecret(db)).toBe(first);
    expect(pseudonym("alice", first)).toBe(pseudonym("alice", first));
    expect(pseudonym("alice", first)).not.toBe(pseudonym("alice", "another secret"));
  });
});
