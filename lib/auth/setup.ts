import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db.ts";
import { hashToken } from "./tokens.ts";
import { countUsers, createUser, type UserView } from "./users.ts";

// First run: with no user in the store, `npm start` either creates the admin named by
// GPUFLEET_ADMIN_EMAIL/GPUFLEET_ADMIN_PASSWORD or prints a one-time /setup link. The link's
// token is stored hashed, expires, and stops working once any user exists.

const SETUP_TTL_MS = 24 * 3600_000;

export async function createSetupToken(now = new Date()): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await db.setupToken.deleteMany({});
  await db.setupToken.create({
    data: { tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + SETUP_TTL_MS) },
  });
  return token;
}

export async function setupTokenValid(token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 100) return false;
  if ((await countUsers()) > 0) return false;
  const row = await db.setupToken.findUnique({ where: { tokenHash: hashToken(token) } });
  return row !== null && row.expiresAt > now;
}

/** Creates the first admin with a valid one-time token, then burns every setup token. */
export async function completeSetup(
  token: string,
  input: { email: string; name?: string; password: string },
): Promise<UserView | null> {
  if (!(await setupTokenValid(token))) return null;
  // burning the token first means two racing submissions cannot both create an admin
  const burned = await db.setupToken.deleteMany({ where: { tokenHash: hashToken(token) } });
  if (burned.count !== 1) return null;
  return createUser({ ...input, role: "admin" });
}
