import type { Db } from "../db.ts";

/** Drops the embedded store's minute aggregates older than `before` (the retention setting). */
export async function pruneMinutes(db: Db, before: Date): Promise<void> {
  await db.gpuMinute.deleteMany({ where: { minuteStart: { lt: before } } });
  await db.hostMinute.deleteMany({ where: { minuteStart: { lt: before } } });
}
