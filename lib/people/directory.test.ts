import { execFileSync } from "node:child_process";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Holder } from "@/lib/core/holders.ts";

// The people directory (issue 24): entries by hand and by CSV, the address pattern, lookups.

const file = vi.hoisted(() => {
  const path = `${process.env.TMPDIR ?? "/tmp"}/gpufleet-people-${process.pid}-${Date.now()}.db`;
  process.env.DATABASE_URL = `file:${path}`;
  return path;
});

beforeAll(() => {
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", file]);
});

const holder = (over: Partial<Holder>): Holder => ({
  user: null,
  kind: "process",
  ref: "python",
  name: null,
  namespace: null,
  account: null,
  ...over,
});

async function load() {
  const dir = await import("./directory.ts");
  const { setSetting } = await import("@/lib/settings/app-settings.ts");
  const { db } = await import("@/lib/db.ts");
  return { ...dir, setSetting, db };
}

beforeEach(async () => {
  const { db, setSetting } = await load();
  await db.personContact.deleteMany();
  await setSetting("peopleEmailPattern", null);
});

describe("people directory", () => {
  it("finds a user, then a pod namespace, then a Slurm account, and falls back to the pattern", async () => {
    const { savePerson, holderContacts, setSetting } = await load();
    await savePerson({
      kind: "user",
      key: "alice",
      email: "Alice@Example.com",
      slackId: "U024BE7LH",
    });
    await savePerson({
      kind: "namespace",
      key: "vision",
      email: "vision-leads@example.com",
      slackId: null,
    });
    await savePerson({ kind: "account", key: "physics", email: null, slackId: "W0PHYS1" });
    await setSetting("peopleEmailPattern", "{user}@corp.example");
    const got = await holderContacts([
      holder({ user: "alice", namespace: "vision" }),
      holder({ user: "1000", kind: "pod", namespace: "vision" }),
      holder({ user: "carol", account: "physics" }),
      holder({ user: "dave" }),
      holder({ user: "unknown" }),
      holder({ user: "4242" }),
    ]);
    expect(got.map((c) => c && [c.email, c.slackId, c.via, c.matched])).toEqual([
      ["alice@example.com", "U024BE7LH", "directory", "user alice"],
      ["vision-leads@example.com", null, "directory", "namespace vision"],
      [null, "W0PHYS1", "directory", "account physics"],
      ["dave@corp.example", null, "pattern", "user dave"],
      null,
      null,
    ]);
  });

  it("imports a CSV, replacing the previous CSV's entries but never those added by hand", async () => {
    const { parsePeopleCsv, importPeople, savePerson, listPeople, contactFor } = await load();
    await savePerson({ kind: "user", key: "bob", email: "bob@hand.example", slackId: null });
    const first = parsePeopleCsv(
      "key,email,slack_id\nalice,alice@example.com,U1AAA\nbob,bob@csv.example,\n",
    );
    expect(await importPeople(first)).toEqual({ imported: 1, keptManual: 1 });
    const second = parsePeopleCsv("\ufeffkind,key,email\nnamespace,ml,ml@example.com\n");
    await importPeople(second);
    const people = await listPeople();
    expect(people.map((p) => [p.kind, p.key, p.email, p.source])).toEqual([
      ["namespace", "ml", "ml@example.com", "csv"],
      ["user", "bob", "bob@hand.example", "manual"],
    ]);
    expect(await contactFor(holder({ user: "alice" }))).toBeNull();
  });

  it("refuses a bad CSV as a whole, naming the line", async () => {
    const { parsePeopleCsv } = await load();
    expect(() => parsePeopleCsv("key,email\nalice,not-an-email\n")).toThrow(/line 2: email/);
    expect(() => parsePeopleCsv("key,email\nalice,a@x.io\nalice,b@x.io\n")).toThrow(
      /line 3: user alice appears twice/,
    );
    expect(() => parsePeopleCsv("key,slack_id\nalice,nope\n")).toThrow(
      /line 2: slackId: a Slack member id/,
    );
    expect(() => parsePeopleCsv("key\nalice\n")).toThrow(
      /email address, a Slack member id or both/,
    );
    expect(() => parsePeopleCsv("name,email\nalice,a@x.io\n")).toThrow(/header with key/);
    expect(() => parsePeopleCsv('key,email\n"alice,a@x.io\n')).toThrow(/not a CSV/);
  });

  it("maps a signed-in email back to the holders it stands for (entries and the pattern)", async () => {
    const { savePerson, keysForEmail, setSetting } = await load();
    await savePerson({ kind: "user", key: "alice", email: "alice@example.com", slackId: null });
    await savePerson({ kind: "namespace", key: "ml", email: "alice@example.com", slackId: null });
    expect(await keysForEmail("Alice@example.com")).toEqual([
      { kind: "namespace", key: "ml" },
      { kind: "user", key: "alice" },
    ]);
    await setSetting("peopleEmailPattern", "{user}@corp.example");
    expect(await keysForEmail("dave@corp.example")).toEqual([{ kind: "user", key: "dave" }]);
    expect(await keysForEmail("dave@elsewhere.example")).toEqual([]);
  });

  it("refuses a pattern without {user} or one that gives no address", async () => {
    const { emailPatternSchema } = await import("@/lib/zod/schemas/person.ts");
    expect(emailPatternSchema.safeParse("ops@example.com").success).toBe(false);
    expect(emailPatternSchema.safeParse("{user} at example").success).toBe(false);
    expect(emailPatternSchema.safeParse("{user}@example.com").success).toBe(true);
  });
});
