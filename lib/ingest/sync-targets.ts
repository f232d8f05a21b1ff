import "server-only";
import type { Db } from "../db.ts";
import type { ScrapeTarget } from "./targets.ts";

// Makes every listed target a host in the store. A new target gets a placeholder hostname (its
// address) until its first scrape says which host it is.

export async function syncTargets(db: Db, targets: ScrapeTarget[], origin: string): Promise<void> {
  for (const t of targets) {
    const existing = await db.host.findUnique({ where: { target: t.url }, select: { id: true } });
    if (existing) continue;
    const url = new URL(t.url);
    await db.host.create({
      data: {
        hostname:
          t.hostnameHint ??
          t.labels.hostname ??
          `${url.host}${url.pathname === "/metrics" ? "" : url.pathname}`,
        target: t.url,
        origin,
        ...(t.labels.team ? { team: t.labels.team } : {}),
        ...(t.labels.project ? { project: t.labels.project } : {}),
        labels: JSON.stringify(t.labels),
      },
    });
  }
}
