import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { auditData } from "../auth/audit.ts";
import { HOUR_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import { env } from "../env.ts";
import { KEEP_HOURS } from "../zod/schemas/policy.ts";
import { runLabel } from "./holder-runs.ts";
import { episodeHolder } from "./run-episodes.ts";

// "Keep for 4 h / 8 h / 24 h" links sent with a policy's warning. A link is `<nonce>.<mac>`: the
// nonce names a stored PolicyKeepLink (episode, host, hours, expiry), the mac is HMAC-SHA256 with
// the server's key over all of them, so a link cannot be forged, moved to another host or episode,
// or stretched. It is single use (one conditional update; redeeming one spends the episode's
// other links too) and expires with its warning's grace period. It needs no sign-in: whoever got
// the warning may keep the host. Every failure answers the same, so a guess learns nothing.

const SETTING_KEY = "policies.keepLinkKey";
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
export const KEEP_LINK_INVALID = "this keep link is not valid: it may be used, expired or mistyped";

let cachedKey: Buffer | null = null;

/** The links' key: derived from GPUFLEET_AUTH_SECRET, else generated once and kept in the store. */
export async function keepLinkKey(db: Db): Promise<Buffer> {
  if (cachedKey) return cachedKey;
  let secret = env.GPUFLEET_AUTH_SECRET;
  if (!secret) {
    const existing = await db.appSetting.findUnique({ where: { key: SETTING_KEY } });
    if (existing) secret = existing.value;
    else {
      try {
        await db.appSetting.create({
          data: { key: SETTING_KEY, value: randomBytes(32).toString("base64url") },
        });
      } catch {
        // another replica created it first: read theirs
      }
      secret = (await db.appSetting.findUniqueOrThrow({ where: { key: SETTING_KEY } })).value;
    }
  }
  cachedKey = createHmac("sha256", secret).update("gpufleet policy keep links v1").digest();
  return cachedKey;
}

interface Binding {
  nonce: string;
  episodeId: string;
  hostId: string;
  hours: number;
  expiresAt: Date;
}

function mac(key: Buffer, b: Binding): Buffer {
  const text = ["keep", b.nonce, b.episodeId, b.hostId, b.hours, b.expiresAt.getTime()].join("|");
  return createHmac("sha256", key).update(text).digest();
}

/** Stores and signs one link per keep duration for an episode's warning. */
export async function issueKeepLinks(
  db: Db,
  e: { id: string; hostId: string },
  expiresAt: Date,
): Promise<{ hours: number; token: string }[]> {
  const key = await keepLinkKey(db);
  const out: { hours: number; token: string }[] = [];
  for (const hours of KEEP_HOURS) {
    const nonce = randomBytes(16).toString("base64url");
    const b = { nonce, episodeId: e.id, hostId: e.hostId, hours, expiresAt };
    await db.policyKeepLink.create({ data: b });
    out.push({ hours, token: `${nonce}.${mac(key, b).toString("base64url")}` });
  }
  return out;
}

export type KeepResult =
  | {
      ok: true;
      hostname: string;
      /** the job or pod kept ("job 4242 (alice)"); null when the host itself is kept */
      run: string | null;
      keepUntil: Date;
      hours: number;
    }
  | { ok: false; message: string };

const INVALID: KeepResult = { ok: false, message: KEEP_LINK_INVALID };

/** Redeems a keep link: the episode's deadline moves to now + hours (never earlier). */
export async function redeemKeepLink(
  db: Db,
  token: string,
  now: Date,
  ip: string | null,
): Promise<KeepResult> {
  const m = TOKEN.exec(token);
  if (!m) return INVALID;
  const [, nonce = "", sig = ""] = m;
  const key = await keepLinkKey(db);
  const row = await db.policyKeepLink.findUnique({ where: { nonce } });
  // the same work whether or not the nonce exists: no timing tells a stored nonce apart
  const expected = mac(
    key,
    row ?? { nonce, episodeId: "", hostId: "", hours: 0, expiresAt: new Date(0) },
  );
  const given = Buffer.from(sig, "base64url");
  const good = given.length === expected.length && timingSafeEqual(given, expected);
  if (!row || !good || row.usedAt !== null || row.expiresAt <= now) return INVALID;
  const keepUntil = new Date(now.getTime() + row.hours * HOUR_MS);
  return db.$transaction(async (tx) => {
    const spent = await tx.policyKeepLink.updateMany({
      where: { nonce, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (spent.count !== 1) return INVALID;
    await tx.policyKeepLink.updateMany({
      where: { episodeId: row.episodeId, usedAt: null },
      data: { usedAt: now },
    });
    const e = await tx.policyEpisode.findUnique({ where: { id: row.episodeId } });
    if (!e || e.state !== "open" || e.hostId !== row.hostId) return INVALID;
    const until = e.keepUntil && e.keepUntil > keepUntil ? e.keepUntil : keepUntil;
    await tx.policyEpisode.update({ where: { id: e.id }, data: { keepUntil: until } });
    const host = await tx.host.findUnique({ where: { id: e.hostId }, select: { hostname: true } });
    const holder = episodeHolder(e);
    await tx.auditEvent.create({
      data: auditData({
        actor: "keep-link",
        action: "policy.keep",
        target: host?.hostname ?? e.hostId,
        detail: {
          episodeId: e.id,
          policyId: e.policyId,
          hours: row.hours,
          keepUntil: until,
          ...(holder ? { run: holder } : {}),
        },
        ip,
      }),
    });
    return {
      ok: true,
      hostname: host?.hostname ?? "the host",
      run: holder ? runLabel(holder) : null,
      keepUntil: until,
      hours: row.hours,
    };
  });
}
