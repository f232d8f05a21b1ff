import "server-only";
import type { Db } from "../db.ts";
import { describeHolder, mergeHolders, type HolderMemory } from "../core/holders.ts";
import type { MetricsSource, ProcessInfo } from "../metrics/source.ts";
import { holderContacts } from "../people/directory.ts";
import type { Condition } from "./facts.ts";

// Idle alerts name the holder (issue 24): a held-idle GPU's condition gets who holds it (its
// processes' holders, largest memory first), the process, container, pod or job, and the holder's
// Slack member id from the people directory, so messages mention them and Alertmanager pushes carry
// a `holder` label. The host owner stays in the details as the fallback. One processes() read per
// host with a held-idle GPU; a failed read leaves the conditions as they were.

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
  const mains = held.map((c) => holdersOf(c)[0]?.holder).filter((h) => h !== undefined);
  // a directory that cannot be read leaves the alert to the owner and the team, never fails it
  const contacts = await holderContacts(mains, db).catch(() => mains.map(() => null));
  const contactOf = new Map(mains.map((h, i) => [describeHolder(h), contacts[i] ?? null]));
  return conditions.map((c) => {
    if (!held.includes(c)) return c;
    const hs = holdersOf(c);
    const main = hs[0];
    if (!main) return c;
    const name = describeHolder(main.holder);
    const contact = contactOf.get(name) ?? null;
    const owner = typeof c.details.owner === "string" ? ` (owner ${c.details.owner})` : "";
    const summary = c.summary.endsWith(owner)
      ? c.summary.slice(0, c.summary.length - owner.length)
      : c.summary;
    return {
      ...c,
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
