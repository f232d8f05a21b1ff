import "server-only";
import { parse } from "csv-parse/sync";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { InvalidInputError } from "@/lib/core/errors.ts";
import type { Holder } from "@/lib/core/holders.ts";
import {
  emailPatternSchema,
  personInputSchema,
  personSchema,
  type Person,
  type PersonInput,
  type PersonKind,
} from "@/lib/zod/schemas/person.ts";

// The people directory (issue 24): maps a holder's user, pod namespace or Slurm account to an email
// address and a Slack member id, from entries (by hand or an uploaded CSV) or, for a user no entry
// names, the address pattern (`{user}@example.com`). The only writer of PersonContact.
// `contactFor` and `holderContacts` are the service other features call (idle alerts, policies).

export interface Contact {
  email: string | null;
  slackId: string | null;
  /** what matched: an entry of the directory, the address pattern, or an owner label that is an address */
  via: "directory" | "pattern" | "owner label";
  /** the directory key that matched ("user alice", "namespace ml") */
  matched: string;
}

/** The address pattern (the admin setting peopleEmailPattern), read from `client`; null: none. */
async function emailPattern(client: Db): Promise<string | null> {
  const row = await client.appSetting.findUnique({ where: { key: "peopleEmailPattern" } });
  if (!row) return null;
  try {
    const parsed = emailPatternSchema.nullable().safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Users the pattern never applies to: numeric uids, "unknown", root and system accounts. */
function patternApplies(user: string): boolean {
  return /^[a-z_][a-z0-9._-]*$/i.test(user) && user !== "unknown" && user !== "root";
}

/** The directory keys a holder is looked up by, most specific first. */
export function holderKeys(h: Holder): { kind: PersonKind; key: string }[] {
  const out: { kind: PersonKind; key: string }[] = [];
  if (h.user) out.push({ kind: "user", key: h.user });
  if (h.namespace) out.push({ kind: "namespace", key: h.namespace });
  if (h.account) out.push({ kind: "account", key: h.account });
  return out;
}

/** Who to tell about what `holder` holds; null when neither an entry nor the pattern names one. */
export async function contactFor(holder: Holder, client: Db = defaultDb): Promise<Contact | null> {
  return (await holderContacts([holder], client))[0] ?? null;
}

/** contactFor for many holders with one read of the directory; results in the holders' order. */
export async function holderContacts(
  holders: readonly Holder[],
  client: Db = defaultDb,
): Promise<(Contact | null)[]> {
  const keys = holders.flatMap(holderKeys);
  const entries =
    keys.length === 0
      ? []
      : await client.personContact.findMany({
          where: { OR: keys.map((k) => ({ kind: k.kind, key: k.key })) },
        });
  const byKey = new Map(entries.map((e) => [`${e.kind}|${e.key}`, e]));
  const pattern = await emailPattern(client);
  return holders.map((h) => {
    for (const k of holderKeys(h)) {
      const e = byKey.get(`${k.kind}|${k.key}`);
      if (e)
        return {
          email: e.email,
          slackId: e.slackId,
          via: "directory",
          matched: `${k.kind} ${k.key}`,
        };
    }
    if (pattern && h.user && patternApplies(h.user)) {
      return {
        email: pattern.replaceAll("{user}", h.user),
        slackId: null,
        via: "pattern",
        matched: `user ${h.user}`,
      };
    }
    return null;
  });
}

/** The directory keys (users, namespaces, accounts) whose entry carries `email`: "my GPUs". */
export async function keysForEmail(
  email: string,
  client: Db = defaultDb,
): Promise<{ kind: PersonKind; key: string }[]> {
  const rows = await client.personContact.findMany({
    where: { email: { equals: email.trim().toLowerCase() } },
    select: { kind: true, key: true },
    orderBy: [{ kind: "asc" }, { key: "asc" }],
  });
  const out = rows.map((r) => ({ kind: r.kind as PersonKind, key: r.key }));
  // the pattern maps back too: alice@example.com under {user}@example.com is user alice
  const pattern = await emailPattern(client);
  if (pattern) {
    const [head = "", tail = ""] = pattern.toLowerCase().split("{user}");
    const e = email.trim().toLowerCase();
    if (e.startsWith(head) && e.endsWith(tail) && e.length > head.length + tail.length) {
      const user = e.slice(head.length, e.length - tail.length);
      if (patternApplies(user) && !out.some((k) => k.kind === "user" && k.key === user))
        out.push({ kind: "user", key: user });
    }
  }
  return out;
}

function toPerson(r: {
  id: string;
  kind: string;
  key: string;
  email: string | null;
  slackId: string | null;
  source: string;
}): Person {
  return personSchema.parse(r);
}

export async function listPeople(client: Db = defaultDb): Promise<Person[]> {
  const rows = await client.personContact.findMany({ orderBy: [{ kind: "asc" }, { key: "asc" }] });
  return rows.map(toPerson);
}

/** Adds or replaces one entry by hand (kind + key is the identity). */
export async function savePerson(input: PersonInput, client: Db = defaultDb): Promise<Person> {
  const data = { ...input, email: input.email?.toLowerCase() ?? null, source: "manual" };
  const row = await client.personContact.upsert({
    where: { kind_key: { kind: input.kind, key: input.key } },
    create: data,
    update: data,
  });
  return toPerson(row);
}

export async function deletePerson(id: string, client: Db = defaultDb): Promise<Person | null> {
  const row = await client.personContact.findUnique({ where: { id } });
  if (!row) return null;
  await client.personContact.delete({ where: { id } });
  return toPerson(row);
}

export const PEOPLE_CSV_MAX_ROWS = 50_000;

function csvError(message: string): InvalidInputError {
  return new InvalidInputError(message, [{ path: "csv", message }]);
}

/**
 * A directory CSV: header `kind,key,email,slack_id` (kind optional: user). Every row is checked
 * before anything is written; errors name the line.
 */
export function parsePeopleCsv(text: string): PersonInput[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, {
      columns: (h: string[]) => h.map((x) => x.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch (e) {
    throw csvError(`not a CSV: ${(e as Error).message}`);
  }
  if (records.length > PEOPLE_CSV_MAX_ROWS)
    throw csvError(`at most ${PEOPLE_CSV_MAX_ROWS} rows (got ${records.length})`);
  const seen = new Set<string>();
  return records.map((r, i) => {
    const line = i + 2;
    if (!("key" in r))
      throw csvError("the CSV needs a header with key (and email and/or slack_id)");
    const parsed = personInputSchema.safeParse({
      kind: r.kind || "user",
      key: r.key,
      email: r.email || null,
      slackId: r.slack_id || null,
    });
    if (!parsed.success)
      throw csvError(
        `line ${line}: ${parsed.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`,
      );
    const id = `${parsed.data.kind}|${parsed.data.key}`;
    if (seen.has(id))
      throw csvError(`line ${line}: ${parsed.data.kind} ${parsed.data.key} appears twice`);
    seen.add(id);
    return parsed.data;
  });
}

/** Replaces the CSV-sourced entries with `rows` at once; entries added by hand win over the CSV. */
export async function importPeople(
  rows: readonly PersonInput[],
  client: Db = defaultDb,
): Promise<{ imported: number; keptManual: number }> {
  return client.$transaction(async (tx) => {
    const manual = await tx.personContact.findMany({
      where: { source: "manual" },
      select: { kind: true, key: true },
    });
    const taken = new Set(manual.map((m) => `${m.kind}|${m.key}`));
    const fresh = rows.filter((r) => !taken.has(`${r.kind}|${r.key}`));
    await tx.personContact.deleteMany({ where: { source: "csv" } });
    await tx.personContact.createMany({
      data: fresh.map((r) => ({ ...r, email: r.email?.toLowerCase() ?? null, source: "csv" })),
    });
    return { imported: fresh.length, keptManual: rows.length - fresh.length };
  });
}
