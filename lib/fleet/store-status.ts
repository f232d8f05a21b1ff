import "server-only";
import { db, type Db } from "../db.ts";

/** What a signed-in caller of /api/health learns of the store: hosts known, the collector's last tick. */
export async function storeStatus(
  client: Db = db,
): Promise<{ hosts: number; collectorLastTick: string | null }> {
  const [hosts, tick] = await Promise.all([
    client.host.count(),
    client.jobState.findUnique({ where: { name: "collector.lastTick" } }),
  ]);
  return { hosts, collectorLastTick: tick?.value ?? null };
}
