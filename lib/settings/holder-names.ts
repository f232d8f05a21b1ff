import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { db as defaultDb, type Db } from "@/lib/db.ts";
import { describeHolder, type Holder } from "@/lib/core/holders.ts";
import { getSetting } from "./app-settings.ts";

// Holder names are personal data (issue 24). Pages and exports show them only within the viewer's
// team scope (the services' scope argument); with the admin setting pseudonymizeHoldersForViewers,
// viewers see a stable pseudonym instead: an HMAC of the name under a server secret generated once
// and kept in the store, so it is the same across restarts and replicas and cannot be reversed
// without the store.

const SECRET_KEY = "holders.pseudonymSecret";

/** "user-" and 8 hex characters of HMAC-SHA256(secret, name): stable, not reversible. */
export function pseudonym(name: string, secret: string): string {
  return `user-${createHmac("sha256", secret).update(name).digest("hex").slice(0, 8)}`;
}

export async function pseudonymSecret(client: Db = defaultDb): Promise<string> {
  const existing = await client.appSetting.findUnique({ where: { key: SECRET_KEY } });
  if (existing) return existing.value;
  try {
    await client.appSetting.create({
      data: { key: SECRET_KEY, value: randomBytes(32).toString("base64url") },
    });
  } catch {
    // another replica created it first: read theirs
  }
  return (await client.appSetting.findUniqueOrThrow({ where: { key: SECRET_KEY } })).value;
}

/** How one viewer sees holders: a holder's description, and a person's name. */
export interface HolderNamer {
  pseudonymous: boolean;
  holder: (h: Holder) => string;
  person: (name: string) => string;
}

/** The plain namer: names as the exporter reported them. */
export const PLAIN_NAMER: HolderNamer = {
  pseudonymous: false,
  holder: describeHolder,
  person: (name) => name,
};

/** A namer that shows every holder as a pseudonym and its kind ("user-3fa9c2d1 · container"). */
export function pseudonymNamer(secret: string): HolderNamer {
  const person = (name: string) => pseudonym(name, secret);
  return {
    pseudonymous: true,
    person,
    holder: (h) =>
      `${person(h.user ?? h.namespace ?? h.account ?? `${h.kind}:${h.ref}`)} · ${h.kind}`,
  };
}

/** The namer for an actor: viewers get pseudonyms while the admin setting is on. */
export async function holderNamerFor(
  actor: { kind: "user"; role: string } | { kind: "token" },
  client: Db = defaultDb,
): Promise<HolderNamer> {
  if (actor.kind !== "user" || actor.role !== "viewer") return PLAIN_NAMER;
  if (!(await getSetting("pseudonymizeHoldersForViewers"))) return PLAIN_NAMER;
  return pseudonymNamer(await pseudonymSecret(client));
}
