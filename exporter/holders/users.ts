// uid → user name through the host's user database, NSS included (LDAP, SSSD): `getent passwd
// <uid>`, spawned at most once per uid per TTL, in the background (AsyncCache). Until a uid is
// resolved, and when the database has no such uid (a container's own user), the holder shows the
// numeric uid; "unknown" is kept for a process whose owner could not be read at all.

import { execFile } from "node:child_process";
import { AsyncCache } from "./async-cache.ts";

export const UNKNOWN_USER = "unknown";

/** The name, or null when the database has no such uid; throws when it could not be asked. */
export type UserLookup = (uid: number) => Promise<string | null>;

/** `getent passwd <uid>`: exit 0 prints the entry; exit 2 means no such entry. */
export function getentLookup(timeoutMs: number, command = "getent"): UserLookup {
  return (uid) =>
    new Promise((resolve, reject) => {
      execFile(
        command,
        ["passwd", String(uid)],
        { timeout: timeoutMs, maxBuffer: 64 * 1024 },
        (err, stdout) => {
          if (err) {
            if ((err as { code?: unknown }).code === 2) resolve(null);
            else reject(err);
            return;
          }
          resolve(parsePasswdName(stdout, uid));
        },
      );
    });
}

/** "alice:x:1001:1001:Alice:/home/alice:/bin/bash" → "alice" when the uid matches. */
export function parsePasswdName(text: string, uid: number): string | null {
  for (const line of text.split("\n")) {
    const f = line.split(":");
    if (f.length >= 3 && f[2] === String(uid) && f[0]) return f[0];
  }
  return null;
}

/** A fixed table (the simulator's hosts, tests). */
export function tableLookup(users: ReadonlyMap<number, string>): UserLookup {
  return (uid) => Promise.resolve(users.get(uid) ?? null);
}

export interface UserNamesOptions {
  lookup: UserLookup;
  max?: number;
  ttlMs?: number;
  errorTtlMs?: number;
  onError?: (uid: number, err: unknown) => void;
}

export class UserNames {
  readonly cache: AsyncCache<number, string | null>;

  constructor(opts: UserNamesOptions) {
    this.cache = new AsyncCache({
      lookup: opts.lookup,
      max: opts.max ?? 4096,
      ttlMs: opts.ttlMs ?? 3_600_000,
      errorTtlMs: opts.errorTtlMs ?? 60_000,
      concurrency: 2,
      onError: opts.onError,
    });
  }

  /** The name once resolved, else the uid as text; never waits, never spawns on this call's path. */
  label(uid: number | undefined): string {
    if (uid === undefined) return UNKNOWN_USER;
    return this.cache.get(uid) ?? String(uid);
  }
}
