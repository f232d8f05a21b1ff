import "server-only";
import type { Db } from "../db.ts";

// A lease row in the store makes one process the collector's leader, so several app replicas on one
// database write each ledger hour and send each notification once. It expires if not renewed.

export async function tryAcquireLease(
  db: Db,
  name: string,
  holder: string,
  ttlMs: number,
  now = new Date(),
): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const renewed = await db.lease.updateMany({
    where: { name, OR: [{ holder }, { expiresAt: { lt: now } }] },
    data: { holder, expiresAt },
  });
  if (renewed.count === 1) return true;
  try {
    await db.lease.create({ data: { name, holder, expiresAt } });
    return true;
  } catch {
    return false; // another holder created or holds it
  }
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.lease.deleteMany({ where: { name, holder } });
}
