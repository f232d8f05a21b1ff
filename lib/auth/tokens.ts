import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db.ts";
import type { TokenScope } from "./roles.ts";

export type TokenActor = { kind: "token"; id: string; name: string; scope: TokenScope };

// API tokens: 32 random bytes, shown once; the store keeps only their SHA-256 (a slow hash adds
// nothing for a 256-bit random secret, and every API request must check one quickly).

const TOKEN_PREFIX = "gft_";
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type ApiTokenView = {
  id: string;
  name: string;
  prefix: string;
  scope: TokenScope;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

type Row = {
  id: string;
  name: string;
  prefix: string;
  scope: string;
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

function view(r: Row): ApiTokenView {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scope: r.scope === "write" ? "write" : "read",
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}

export async function createApiToken(input: {
  name: string;
  scope: TokenScope;
  createdBy: string;
}): Promise<{ token: string; view: ApiTokenView }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const row = await db.apiToken.create({
    data: {
      name: input.name,
      scope: input.scope,
      createdBy: input.createdBy,
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      tokenHash: hashToken(token),
    },
  });
  return { token, view: view(row) };
}

export async function listApiTokens(): Promise<ApiTokenView[]> {
  const rows = await db.apiToken.findMany({ orderBy: { createdAt: "desc" } });
  return rows.map(view);
}

/** Revokes a token; null when there is no such token. Revoking twice keeps the first time. */
export async function revokeApiToken(id: string): Promise<ApiTokenView | null> {
  const row = await db.apiToken.findUnique({ where: { id } });
  if (!row) return null;
  if (row.revokedAt) return view(row);
  return view(await db.apiToken.update({ where: { id }, data: { revokedAt: new Date() } }));
}

/** The token's actor, or null when it is unknown or revoked. */
export async function verifyApiToken(token: string): Promise<TokenActor | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db.apiToken.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!row || row.revokedAt) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // best effort: a failed bookkeeping write must not refuse a valid token
    await db.apiToken
      .update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } })
      .catch((e: unknown) => console.error("[auth] could not record token use:", e));
  }
  return {
    kind: "token",
    id: row.id,
    name: row.name,
    scope: row.scope === "write" ? "write" : "read",
  };
}
