import "server-only";
import type { Db } from "../db.ts";
import { describeHolder, mergeHolders, type Holder, type HolderMemory } from "../core/holders.ts";
import type { Audience, Person } from "../notify/audience.ts";
import type { MetricsSource, ProcessInfo } from "../metrics/source.ts";
import { holderContacts, type Contact } from "../people/directory.ts";
import { z } from "zod";
import type { Condition } from "./facts.ts";

// Idle alerts name the holder (issue 24): a held-idle GPU's condition gets who holds it (its
// processes' holders, largest memory first), the process, container, pod or job, and the holder's
// Slack member id from the people directory, so messages mention them and Alertmanager pushes carry
// a `holder` label. The host owner stays in the details as the fallback. One processes() read per
// host with a held-idle GPU; a failed read leaves the conditions as they were.
//
// The condition's audience (not stored; lib/notify/audience.ts decides the channels): every holder
// of the GPU the directory maps, else the host's owner (its owner label looked up as a user), else
// none, and the alert goes to the team's channels. The decision of WHO lives here because only
// lib/alerts may read both the holders and lib/people (features import one way: alerts → people,
// alerts → notify); lib/notify decides HOW, without knowing about holders.

/** Adds holder facts to held-idle conditions; others are returned unchanged. */
export async function withIdleHolders(
  conditions: readonly Condition[],
  metrics: Partial<Pick<MetricsSource, "processes">>,
  db: Db,
): Promise<Condition[]> {
  const read = metrics.processes?.bind(metrics);
  if (!read) return [...conditions];
  const held = conditions.filter((c) => c.details.idleKind === "held" && c.hostId && c.gpuUuid);
  const hostIds = [...new Set(held.map((c) => c.hostId as string))];
  const procs = new Map<string, ProcessInfo[]>();
  await Promise.all(hostIds.map(async (id) => procs.set(id, await read(id).catch(() => []))));
  const holdersOf = (c: Condition): HolderMemory[] =>
    mergeHolders(
      (procs.get(c.hostId ?? "") ?? []).flatMap((p) =>
        p.gpuUuid === c.gpuUuid && p.holder
          ? [{ holder: p.holder, memBytes: p.usedMemoryBytes }]
          : [],
      ),
    );
  const all = held.flatMap((c) => holdersOf(c).map((h) => h.holder));
  const owners = [
    ...new Set(held.flatMap((c) => (typeof c.details.owner === "string" ? [c.details.owner] : []))),
  ];
  const asked: Holder[] = [...all, ...owners.map(ownerAsHolder)];
  // a directory that cannot be read leaves the alert to the team, never fails it
  const contacts = await holderContacts(asked, db).catch(() => asked.map(() => null));
  const contactOf = new Map(all.map((h, i) => [describeHolder(h), contacts[i] ?? null]));
  const ownerContact = new Map(
    owners.map((o, i) => [o, contacts[all.length + i] ?? ownerAddress(o)]),
  );
  return conditions.map((c) => {
    if (!held.includes(c)) return c;
    const hs = holdersOf(c);
    const main = hs[0];
    if (!main) return c;
    const name = describeHolder(main.holder);
    const contact = contactOf.get(name) ?? null;
    const ownerNote = typeof c.details.owner === "string" ? ` (owner ${c.details.owner})` : "";
    const summary = c.summary.endsWith(ownerNote)
      ? c.summary.slice(0, c.summary.length - ownerNote.length)
      : c.summary;
    const people = (list: readonly (Person | null)[]): Person[] =>
      list.flatMap((p) => (p && (p.email || p.slackId) ? [p] : []));
    const owner = typeof c.details.owner === "string" ? ownerContact.get(c.details.owner) : null;
    const audience: Audience = [
      people(hs.map((h) => contactOf.get(describeHolder(h.holder)) ?? null)),
      people([owner ?? null]),
    ].filter((tier) => tier.length > 0);
    return {
      ...c,
      audience,
      summary: `${summary}; held by ${name}`,
      details: {
        ...c.details,
        holder: name,
        holderUser: main.holder.user,
        holderKind: main.holder.kind,
        holders: hs.map((h) => describeHolder(h.holder)),
        holderSlackId: contact?.slackId ?? null,
        holderContact: contact ? contact.matched : null,
      },
    };
  });
}

/** An owner label that is an email address reaches the owner as it is, with no directory entry. */
function ownerAddress(owner: string): Contact | null {
  return emailSchema.safeParse(owner).success
    ? { email: owner, slackId: null, via: "owner label", matched: `owner ${owner}` }
    : null;
}

const emailSchema = z.email();

/** The host's owner label, looked up in the directory as a user (entry or address pattern). */
function ownerAsHolder(owner: string): Holder {
  return { user: owner, kind: "process", ref: "", name: null, namespace: null, account: null };
}
